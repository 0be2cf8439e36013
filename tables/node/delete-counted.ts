import type { PrincipalKind } from '#lib/auth/principal';
import { tableName } from '../client.ts';
import { dropEmptyPrincipal, principalRemove } from '../identity/records.ts';
import type { Key } from '../kernel/batch-delete.ts';
import { forEachLimited } from '../kernel/for-each-limited.ts';
import { type TransactItem, TransactionFailed, transactWrite } from '../kernel/transact.ts';
import { type Counts, orgCounterUpdate } from '../org/stats.ts';

/** Records per counted transaction (each with its principal entry, plus one counter update; DynamoDB allows 100 items). */
const RECORDS_PER_TRANSACTION = 49;

/**
 * Deletes records (each only if it still exists) in transactions that also apply their summed
 * counter changes to the org and remove their principal entries, so a record deleted twice
 * concurrently is counted once and a principal entry goes exactly when its record does.
 */
export async function deleteCounted(
  org: string,
  records: { key: Key; deltas: Partial<Counts>; principal: { id: string; kind: PrincipalKind } }[],
): Promise<void> {
  for (let i = 0; i < records.length; i += RECORDS_PER_TRANSACTION) {
    let chunk = records.slice(i, i + RECORDS_PER_TRANSACTION);
    while (chunk.length > 0) {
      const deltas: Partial<Counts> = {};
      for (const record of chunk) {
        for (const [counter, delta] of Object.entries(record.deltas) as [keyof Counts, number][]) {
          deltas[counter] = (deltas[counter] ?? 0) + delta;
        }
      }
      const items: TransactItem[] = chunk.map(({ key }) => ({
        Delete: { TableName: tableName(), Key: key, ConditionExpression: 'attribute_exists(pk)' },
      }));
      const principals = chunk.map(({ principal }) => principalRemove(org, principal.id, principal.kind));
      try {
        await transactWrite([...items, ...principals, orgCounterUpdate(org, { deltas })]);
        await forEachLimited(chunk, ({ principal }) => dropEmptyPrincipal(org, principal.id));
        break;
      } catch (error) {
        if (!(error instanceof TransactionFailed)) throw error;
        // Records someone else deleted meanwhile: drop them (and their counts) and try the rest.
        chunk = chunk.filter((_, index) => !error.failed[index]);
      }
    }
  }
}
