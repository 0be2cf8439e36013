/** What authentication needs to know about an `org/id` that may be a node, an agbot or a user. */
export type Principal =
  /** `publicKey`: the node's, so a post to an agbot reads nothing more; absent in items written before it. */
  | { kind: 'node'; secretHash: string; owner: string; publicKey?: string }
  | { kind: 'agbot'; secretHash: string; owner: string }
  | { kind: 'user'; secretHash: string; admin: boolean; hubAdmin: boolean };

export type PrincipalKind = Principal['kind'];

/** Upstream's priority when one `org/id` is several kinds at once. */
export const PRINCIPAL_PRIORITY: readonly PrincipalKind[] = ['node', 'agbot', 'user'];
