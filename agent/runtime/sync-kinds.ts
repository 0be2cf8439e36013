/**
 * The documents kept in sync with the Exchange: user input and registered services are
 * attributes of the Exchange node, the policy is its own resource.
 */
export type SyncKind = 'userInput' | 'policy' | 'services';
/** Everything the sync workers push: the documents above and the node management statuses. */
export type PushKind = SyncKind | 'management';
