import { transactWriteWithChanges } from '../feed/changes.ts';
import { deletePartition } from '../kernel/delete-partition.ts';
import { forEachLimited } from '../kernel/for-each-limited.ts';
import { queryPartition } from '../kernel/query-partition.ts';
import { TransactionFailed, transactWrite } from '../kernel/transact.ts';
import { userKeys } from '../keys/user.ts';
import { serviceKeys } from './keys.ts';
import { deletedServiceChange, getService, serviceRecordDelete } from './records.ts';

/** Rounds of "read, delete, write the record's delete" before a service that keeps changing owner fails the delete. */
const MAX_DELETE_ROUNDS = 5;

/**
 * Deletes a service with its policy, keys and dockauths: children first, then the record with its
 * public copy, owner link and count (and a `deleted` change row when `recordChange`), then any
 * child written meanwhile. False when it was already gone. A PUT that moved the service to another
 * owner meanwhile makes the record delete's owner condition fail: read again and retry.
 */
export async function deleteServiceCascade(
  org: string,
  id: string,
  options: { recordChange: boolean },
): Promise<boolean> {
  const { pk, sk } = serviceKeys.record(org, id);
  for (let round = 0; round < MAX_DELETE_ROUNDS; round++) {
    const service = await getService(org, id);
    if (!service) return false;
    await deletePartition(pk, { keep: sk });
    try {
      const items = serviceRecordDelete(service);
      if (options.recordChange) await transactWriteWithChanges(items, [deletedServiceChange(service)]);
      else await transactWrite(items);
    } catch (error) {
      if (error instanceof TransactionFailed) continue;
      throw error;
    }
    await deletePartition(pk);
    return true;
  }
  throw new Error(`service '${org}/${id}' kept changing owner while it was deleted`);
}

/** Deletes the services a user owns in any org (the links in its partition). */
export async function deleteOwnedServices(
  userPk: string,
  options: { recordChanges: boolean },
): Promise<void> {
  const links = await queryPartition({
    partition: userPk,
    prefix: userKeys.ownedServicePrefix,
    projection: 'org, id',
  });
  await forEachLimited(links, (link) =>
    deleteServiceCascade(String(link.org), String(link.id), { recordChange: options.recordChanges }),
  );
}

/**
 * An org's services and the services its users own in other orgs (upstream's foreign keys delete
 * both). The org's own feed goes with the org, so these deletes record no change rows.
 */
export async function deleteOrgServices(org: string, userPartitions: string[]): Promise<void> {
  const services = await queryPartition({
    index: 'gsi1',
    partition: serviceKeys.orgIndex(org),
    projection: 'id',
  });
  await forEachLimited(services, (service) =>
    deleteServiceCascade(org, String(service.id), { recordChange: false }),
  );
  await forEachLimited(userPartitions, (pk) => deleteOwnedServices(pk, { recordChanges: true }));
}
