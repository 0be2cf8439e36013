import { PENDING_CHANGES_PARTITION } from '#lib/feed/agbot-stream-filter';

/**
 * Which records of the table's stream invoke the signal dispatcher (functions/signals/dispatch.ts,
 * docs/signals.md): every new pending change row (`PENDINGCHANGES`, tables/feed/changes.ts), the
 * one place a write records that some feed has something. The row's `operation` (one of the
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
