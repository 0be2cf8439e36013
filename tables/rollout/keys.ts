import { deploymentPolicyKeys } from '../deployment-policy/keys.ts';

/**
 * A policy's rollout plan and the agbots' statuses of it (docs/rollouts.md#where-things-live): in the
 * policy's own partition, beside its `BUSINESSPOL` item, which a policy PUT replaces alone.
 */
export const rolloutKeys = {
  plan: (org: string, policy: string) => ({ pk: deploymentPolicyKeys.record(org, policy).pk, sk: 'ROLLOUT' }),
  status: (org: string, policy: string, agbot: string) => ({
    pk: deploymentPolicyKeys.record(org, policy).pk,
    sk: `ROLLOUTSTATUS#${agbot}`,
  }),
  statusPrefix: 'ROLLOUTSTATUS#',
};
