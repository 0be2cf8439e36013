import { tableName } from '../client.ts';
import { batchDelete, type Key } from '../kernel/batch-delete.ts';
import { queryPages } from '../kernel/list-ceiling.ts';
import { managementPolicyKeys } from './keys.ts';
import { deleteManagementPolicyRecord, getManagementPolicy, markDeleting } from './records.ts';

/** Passes over the statuses index: a status written just before the mark may reach the index late. */
const STATUS_PASSES = 3;

/** The keys of the node statuses of policy `<org>/<name>` (gsi1; every page). */
async function statusKeys(policy: string): Promise<Key[]> {
  const items = await queryPages(
    {
      TableName: tableName(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': managementPolicyKeys.statusIndex(policy) },
      ProjectionExpression: 'pk, sk',
    },
    'all',
  );
  return items as Key[];
}

/**
 * Deletes a management policy and the node statuses that hang on it (upstream's foreign key
 * cascade): marks it `deleting` (no status can be written for it from then on), deletes its
 * statuses, then the record with its change row. An interrupted delete leaves the record, marked,
 * and a retried DELETE finishes the job. False when the policy does not exist.
 */
export async function deleteManagementPolicy(org: string, name: string): Promise<boolean> {
  if (!(await markDeleting(org, name))) return false;
  for (let pass = 0; pass < STATUS_PASSES; pass++) {
    const keys = await statusKeys(`${org}/${name}`);
    if (keys.length === 0) break;
    await batchDelete(keys);
  }
  const record = await getManagementPolicy(org, name);
  return record !== undefined && (await deleteManagementPolicyRecord(record));
}
