import { deleteForeignOwnedAgbot, deleteOwnedAgbots } from './agbot/cascade.ts';
import { deleteOrgDeploymentPolicies, deleteOwnedDeploymentPolicies } from './deployment-policy/cascade.ts';
import { identityKeys } from './identity/keys.ts';
import { changingIdentity, principalCache } from './identity/principals.ts';
import { batchDelete } from './kernel/batch-delete.ts';
import { deletePartition } from './kernel/delete-partition.ts';
import { forEachLimited } from './kernel/for-each-limited.ts';
import { userKeys } from './keys/user.ts';
import { deleteOrgManagementPolicies, deleteOwnedManagementPolicies } from './management-policy/cascade.ts';
import { deleteOwnedNodes } from './node/cascade.ts';
import { deleteOrgObjects } from './object/cascade.ts';
import { deleteOrgRecord } from './org/cascade.ts';
import { orgMembers } from './org/members.ts';
import type { Counts } from './org/stats.ts';
import { deleteOrgPatterns, deleteOwnedPatterns } from './pattern/cascade.ts';
import { deleteOrgSecrets, deleteUserSecrets } from './secret/records.ts';
import { deleteOrgServices, deleteOwnedServices } from './service/cascade.ts';
import { deleteUserChildren, deleteUserRecord } from './user/cascade.ts';

/**
 * Deletes that fan out, as an order of each aggregate's own deletes: an org with everything in it,
 * a user with what it owns. Children go first and the entity's own record last, so an interrupted
 * cascade leaves the record behind and a retried DELETE finishes the job.
 */

/** Agbots owned from another org (hub admins, root) are taken out of their owner's count. */
export async function deleteOrgCascade(org: string): Promise<void> {
  try {
    const { ids, partitions, foreignOwned } = await orgMembers(org);
    // Principal items first, so no member authenticates while the org is emptied; and again once
    // the records are gone, for a token change that wrote an entry meanwhile.
    const principalKeys = [...ids].map((id) => identityKeys.principal(org, id));
    await batchDelete(principalKeys);
    await deleteOrgDeploymentPolicies(org);
    await deleteOrgManagementPolicies(org);
    await deleteOrgObjects(org);
    await deleteOrgPatterns(org);
    const userPartitions = partitions.filter((p) => p.record === 'USER').map((p) => p.pk);
    await deleteOrgServices(org, userPartitions);
    await forEachLimited(partitions, ({ pk, record }) => deletePartition(pk, { last: record }));
    await forEachLimited(foreignOwned, deleteForeignOwnedAgbot);
    await batchDelete(principalKeys);
    await deleteOrgSecrets(org);
    await deleteOrgRecord(org);
  } finally {
    principalCache.forgetOrg(org);
  }
}

/**
 * Deletes user `org/username` with its nodes, secrets, services, deployment and management
 * policies, patterns and agbots (in any org), then its partition and record. Resolves false when the user record was
 * already gone. `userCounts` are the org counter changes for the user itself.
 */
export const deleteUserCascade = (
  org: string,
  username: string,
  userCounts: Partial<Counts> = { users: -1 },
): Promise<boolean> =>
  changingIdentity(org, username, async () => {
    const owner = `${org}/${username}`;
    await deleteOwnedNodes(org, owner);
    await deleteUserSecrets(org, username);
    await deleteOwnedServices(userKeys.record(org, username).pk, { recordChanges: true });
    await deleteOwnedDeploymentPolicies(org, owner);
    await deleteOwnedManagementPolicies(org, owner);
    await deleteOwnedPatterns(org, owner);
    await deleteOwnedAgbots(org, username);
    await deleteUserChildren(org, username);
    return deleteUserRecord(org, username, userCounts);
  });
