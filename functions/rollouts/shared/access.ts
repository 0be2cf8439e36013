import { authorizePolicy } from '#functions/deployment-policies/shared/access';
import type { Caller } from '#lib/auth/caller';
import { accessDenied, notFound } from '#lib/http/errors';
import { listAgbotPolicies } from '#tables/agbot/policy-records';
import { getRollout, type RolloutItem } from '#tables/rollout/records';
import type { RolloutPath } from './schemas.ts';

/**
 * Who may do what with a policy's rollout (docs/rollouts.md#operators): the policy's rights. Its
 * readers read; its owner, the org's admins and root write the plan and act (agbots never); an
 * agbot writes its status only for a policy it serves.
 */
export const rolloutName = (path: RolloutPath) => `${path.organization}/${path.policy}`;
export const noPlan = (path: RolloutPath) =>
  notFound(`business policy '${rolloutName(path)}' has no rollout plan`);

/** Authorizes reading; 404 when the policy is missing. */
export async function authorizeRolloutRead(caller: Caller, path: RolloutPath): Promise<void> {
  const policy = await authorizePolicy(caller, path, 'READ');
  if (!policy) throw notFound(`business policy '${rolloutName(path)}' not found`);
}

/** Authorizes a change of the plan or an operator action; 404 when the policy is missing. */
export async function authorizeRolloutWrite(caller: Caller, path: RolloutPath): Promise<void> {
  if (caller.kind === 'agbot' || caller.kind === 'node')
    throw accessDenied(
      `Access denied: '${caller.fullId}' may not change the rollout of '${rolloutName(path)}'`,
    );
  const policy = await authorizePolicy(caller, path, 'WRITE');
  if (!policy) throw notFound(`business policy '${rolloutName(path)}' not found`);
}

/** Authorizes an agbot's status report: it serves the policy (its row, or `*` of the org). */
export async function authorizeStatusWriter(caller: Caller, path: RolloutPath): Promise<void> {
  const denied = accessDenied(
    `Access denied: '${caller.fullId}' does not serve business policy '${rolloutName(path)}'`,
  );
  if (caller.kind !== 'agbot') throw denied;
  const served = await listAgbotPolicies(caller.org, caller.id);
  if (
    !served.some(
      (r) =>
        r.businessPolOrgid === path.organization && (r.businessPol === path.policy || r.businessPol === '*'),
    )
  )
    throw denied;
}

/** The plan, or 404. */
export async function existingRollout(path: RolloutPath): Promise<RolloutItem> {
  const found = await getRollout(path.organization, path.policy);
  if (!found) throw noPlan(path);
  return found;
}
