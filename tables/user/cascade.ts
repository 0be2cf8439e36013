import { tableName } from '../client.ts';
import { dropEmptyPrincipal, principalRemove } from '../identity/records.ts';
import { deletePartition } from '../kernel/delete-partition.ts';
import { TransactionFailed, transactWrite } from '../kernel/transact.ts';
import { userKeys } from '../keys/user.ts';
import { type Counts, orgCounterUpdate } from '../org/stats.ts';

/** The user's part of its cascade (tables/cascade.ts runs it after what the user owns). */

/** What is left in the user's own partition (its STATS, links, per-owner counts), all but the record. */
export async function deleteUserChildren(org: string, username: string): Promise<void> {
  const user = userKeys.record(org, username);
  await deletePartition(user.pk, { keep: user.sk });
}

/**
 * The user's record with its org counter changes (`userCounts`) and its principal entry, in one
 * transaction; false when the record was already gone.
 */
export async function deleteUserRecord(
  org: string,
  username: string,
  userCounts: Partial<Counts>,
): Promise<boolean> {
  try {
    await transactWrite([
      {
        Delete: {
          TableName: tableName(),
          Key: userKeys.record(org, username),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      orgCounterUpdate(org, { deltas: userCounts }),
      principalRemove(org, username, 'user'),
    ]);
    await dropEmptyPrincipal(org, username);
    return true;
  } catch (error) {
    if (error instanceof TransactionFailed) return false;
    throw error;
  }
}
