import { recordChanges } from '../feed/changes.ts';
import { deletePartition } from '../kernel/delete-partition.ts';
import { orgKeys } from '../keys/org.ts';

/**
 * The org's own partition (its STATS, agent file versions, ...) with the org record last, once
 * everything in the org is gone (tables/cascade.ts runs it).
 */
export async function deleteOrgRecord(org: string): Promise<void> {
  const record = orgKeys.record(org);
  await deletePartition(record.pk, { last: record.sk });
  // Its own feed goes unread with it; readers of every org (root, multi-tenant agbots) learn of it.
  await recordChanges([{ org, id: org, resource: 'org', operation: 'deleted' }]);
}
