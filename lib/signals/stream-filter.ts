import { PENDING_CHANGES_PARTITION } from '#lib/feed/agbot-stream-filter';

/**
 * Which records of the table's stream invoke the signal dispatcher (functions/signals/dispatch.ts,
 * docs/signals.md) for its numbering and signals: every new pending change row (`PENDINGCHANGES`,
 * tables/feed/changes.ts), the one place a write records that some feed has something. The row's `operation` (one of the
 * feed's four) tells a change row from the feed's head, which shares its partition. Numbering
 * (rows moved to `CHANGES#…`), heartbeats and every other write invoke nothing: an idle fleet
 * runs no dispatcher.
 *
 * In the event-filtering syntax of Lambda's event source mappings, exact values only, so the local
 * stream reader applies the same patterns (lib/feed/agbot-stream-filter.ts `matchesStreamPatterns`).
 */
export const CHANGE_OPERATIONS = ['created', 'created/modified', 'modified', 'deleted'];

export const signalStreamPatterns = () => [
  {
    eventName: ['INSERT'],
    dynamodb: {
      Keys: { pk: { S: [PENDING_CHANGES_PARTITION] } },
      NewImage: { operation: { S: CHANGE_OPERATIONS } },
    },
  },
];

/**
 * The items whose creation and removal move an org's counter (tables/org/stream-counts.ts): the
 * messages and agreements of agbot and node partitions, with the counter each moves. `child` is
 * the exact sort key; `childPrefix` what the filter can say of it (`MSGSEQ` and `MSGFROM#…` start
 * like messages but are not, so the handler checks `child`).
 */
export const COUNTED_ITEMS = [
  { partition: 'AGBOT#', childPrefix: 'MSG#', child: /^MSG#\d+$/, counter: 'agbotMsgs' },
  { partition: 'NODE#', childPrefix: 'MSG#', child: /^MSG#\d+$/, counter: 'nodeMsgs' },
  { partition: 'AGBOT#', childPrefix: 'AGREEMENT#', child: /^AGREEMENT#/, counter: 'agbotAgreements' },
  { partition: 'NODE#', childPrefix: 'AGREEMENT#', child: /^AGREEMENT#/, counter: 'nodeAgreements' },
] as const;

const prefixesOf = (values: string[]) => [...new Set(values)].map((prefix) => ({ prefix }));

/** The same items in the filter's syntax, created or removed. */
export const countedItemPatterns = () => [
  {
    eventName: ['INSERT', 'REMOVE'],
    dynamodb: {
      Keys: {
        pk: { S: prefixesOf(COUNTED_ITEMS.map((item) => item.partition)) },
        sk: { S: prefixesOf(COUNTED_ITEMS.map((item) => item.childPrefix)) },
      },
    },
  },
];
