import { deleteManagementPolicy } from './delete.ts';
import { listManagementPolicies } from './records.ts';

/** The management policies' part of the org and user cascades (tables/cascade.ts runs them). */

/** Deletes every policy of an org, each with its statuses and its owner's count. */
export async function deleteOrgManagementPolicies(org: string): Promise<void> {
  for (const policy of await listManagementPolicies(org, 'all'))
    await deleteManagementPolicy(org, policy.name);
}

/** Deletes the policies `owner` (`org/username`) owns, as upstream's owner foreign key does. */
export async function deleteOwnedManagementPolicies(org: string, owner: string): Promise<void> {
  for (const policy of await listManagementPolicies(org, 'all'))
    if (policy.owner === owner) await deleteManagementPolicy(org, policy.name);
}
