import { endpoint } from '#functions/endpoint';
import { json } from '#lib/http/responses';
import { listRolloutStatuses } from '#tables/rollout/records';
import { rolloutsRoutes } from './routes.ts';
import { authorizeRolloutRead, existingRollout, rolloutName } from './shared/access.ts';

/**
 * GET /v1/orgs/{organization}/business/policies/{policy}/rollout/plan: the dry run, which nodes go
 * in which wave, as each serving agbot computed it (only the agbot knows the targeted nodes,
 * docs/rollouts.md#where-things-live); `current` when it was computed from the plan as it is.
 */
export const handler = endpoint(rolloutsRoutes.operations.getRolloutDryRun, {
  authorize: ({ caller, path }) => authorizeRolloutRead(caller, path),
  async handle({ path }) {
    const { lastUpdated } = await existingRollout(path);
    const statuses = await listRolloutStatuses(path.organization, path.policy);
    const plans = statuses.flatMap((s) =>
      s.plan ? [{ agbot: s.agbot, current: s.plan.lastUpdated === lastUpdated, ...s.plan }] : [],
    );
    return json(200, { policy: rolloutName(path), planLastUpdated: lastUpdated, plans });
  },
});
