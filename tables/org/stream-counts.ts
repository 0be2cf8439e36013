import { createHash } from 'node:crypto';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { COUNTED_ITEMS } from '#lib/signals/stream-filter';
import { documentClient, tableName } from '../client.ts';
import { retryOnConflict } from '../kernel/retry-on-conflict.ts';
import { orgKeys } from '../keys/org.ts';
import type { Counts } from './stats.ts';

/**
 * The org counters of messages and agreements (`agbotMsgs`, `nodeMsgs`, `agbotAgreements`,
 * `nodeAgreements`), moved from the table's stream rather than by each request (tables/README.md,
 * "Counters from the stream"). Every message post and delete and every agreement created or
 * deleted used to pay one more UpdateItem for them; the stream's consumer (the signal dispatcher,
 * functions/signals/dispatch.ts) now moves each org's counters once per batch. They count what is
 * stored, so whatever removes an item (a read of expired messages, a cascade, DynamoDB's TTL)
 * uncounts it, and no request path keeps them by hand. Which items count, and the stream's filter
 * for them: lib/signals/stream-filter.ts.
 */

/** A stream record as far as counting needs it (the key; attribute-value JSON). */
export interface CountedRecord {
  eventID?: string;
  eventName?: string;
  dynamodb?: { Keys?: { pk?: { S?: string }; sk?: { S?: string } }; SequenceNumber?: string };
}

/** Each org's counter moves in `records` (an org whose moves cancel out is left out). */
export function countMovesInStream(records: readonly CountedRecord[]): Map<string, Partial<Counts>> {
  const moves = new Map<string, Partial<Counts>>();
  for (const record of records) {
    const delta = record.eventName === 'INSERT' ? 1 : record.eventName === 'REMOVE' ? -1 : 0;
    const pk = record.dynamodb?.Keys?.pk?.S ?? '';
    const sk = record.dynamodb?.Keys?.sk?.S ?? '';
    const kind = COUNTED_ITEMS.find((c) => pk.startsWith(c.partition) && c.child.test(sk));
    if (delta === 0 || !kind) continue;
    // `AGBOT#<org>/<id>`, `NODE#<org>/<id>`: org names hold no slash.
    const org = pk.slice(kind.partition.length, pk.indexOf('/'));
    const counts = moves.get(org) ?? {};
    counts[kind.counter] = (counts[kind.counter] ?? 0) + delta;
    moves.set(org, counts);
  }
  for (const [org, counts] of moves)
    if (Object.values(counts).every((delta) => delta === 0)) moves.delete(org);
  return moves;
}

/** Orgs per transaction (DynamoDB allows 100 items). */
const ORGS_PER_TRANSACTION = 100;

/**
 * Applies `moves` to each org's `STATS`, all in one transaction per 100 orgs. An org whose `STATS`
 * is gone (the org was deleted, and its items after it) is skipped. The transaction's token is
 * made from the batch's records, so a batch the stream delivers again after a lost answer (Lambda
 * invokes at least once) is not counted twice (DynamoDB keeps a token ten minutes).
 */
export async function applyCountMoves(
  moves: Map<string, Partial<Counts>>,
  records: readonly CountedRecord[],
): Promise<void> {
  const orgs = [...moves.keys()].sort();
  const batch = records.map((r) => r.eventID ?? r.dynamodb?.SequenceNumber ?? '').join(',');
  for (let i = 0; i < orgs.length; i += ORGS_PER_TRANSACTION) {
    let chunk = orgs.slice(i, i + ORGS_PER_TRANSACTION);
    while (chunk.length > 0) {
      const token = createHash('sha256')
        .update(`${batch}|${chunk.join(',')}`)
        .digest('hex')
        .slice(0, 36);
      try {
        await retryOnConflict(() =>
          documentClient.send(
            new TransactWriteCommand({
              ClientRequestToken: token,
              TransactItems: chunk.map((org) => countUpdate(org, moves.get(org) ?? {})),
            }),
          ),
        );
        break;
      } catch (error) {
        const reasons =
          error instanceof TransactionCanceledException ? (error.CancellationReasons ?? []) : [];
        const gone = reasons.map((reason) => reason.Code === 'ConditionalCheckFailed');
        if (!gone.includes(true)) throw error;
        chunk = chunk.filter((_, index) => !gone[index]);
      }
    }
  }
}

function countUpdate(org: string, counts: Partial<Counts>) {
  const moved = Object.entries(counts).filter(([, delta]) => delta !== 0);
  return {
    Update: {
      TableName: tableName(),
      Key: orgKeys.stats(org),
      UpdateExpression: `ADD ${moved.map(([counter]) => `#${counter} :${counter}`).join(', ')}`,
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: Object.fromEntries(moved.map(([counter]) => [`#${counter}`, counter])),
      ExpressionAttributeValues: Object.fromEntries(moved.map(([counter, delta]) => [`:${counter}`, delta])),
    },
  };
}

/** Counts the batch's messages and agreements (the stream consumer's half that counts). */
export const countFromStream = (records: readonly CountedRecord[]): Promise<void> =>
  applyCountMoves(countMovesInStream(records), records);
