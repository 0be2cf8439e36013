import { batchDelete } from '../kernel/batch-delete.ts';
import { deletePartition } from '../kernel/delete-partition.ts';
import { transactWrite } from '../kernel/transact.ts';
import { ownerCountUpdate } from '../user/owner-counts.ts';
import { deploymentPolicyKeys } from './keys.ts';
import { deleteDeploymentPolicy, listDeploymentPolicies } from './records.ts';

/** The deployment policies' part of the org and user cascades (tables/cascade.ts runs them). */

/**
 * Deletes every policy of an org (its cascade), by BatchWriteItem, then takes them
 * off their owners' counts (the org's users go with the org; root's count stays right).
 */
export async function deleteOrgDeploymentPolicies(org: string): Promise<void> {
  // Every policy, past the ceiling of a list answered to a client.
  const policies = await listDeploymentPolicies(org, 'all');
  await batchDelete(policies.map((p) => deploymentPolicyKeys.record(org, p.name)));
  // What each policy's partition holds beside it: its rollout plan and statuses (docs/rollouts.md).
  for (const p of policies) await deletePartition(deploymentPolicyKeys.record(org, p.name).pk);
  const perOwner = new Map<string, number>();
  for (const { owner } of policies) perOwner.set(owner, (perOwner.get(owner) ?? 0) + 1);
  for (const [owner, count] of perOwner)
    await transactWrite([ownerCountUpdate('BUSINESSPOL', owner, -count)]);
}

/** Deletes the policies `owner` (`org/username`) owns; policies are only ever in their org. */
export async function deleteOwnedDeploymentPolicies(org: string, owner: string): Promise<void> {
  for (const policy of await listDeploymentPolicies(org, 'all'))
    if (policy.owner === owner) await deleteDeploymentPolicy(policy);
}
