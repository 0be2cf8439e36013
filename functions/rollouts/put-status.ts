import { endpoint } from '#functions/endpoint';
import { ok } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { putRolloutStatus } from '#tables/rollout/records';
import { rolloutsRoutes } from './routes.ts';
import { authorizeStatusWriter, noPlan, rolloutName } from './shared/access.ts';

/**
 * PUT /v1/orgs/{organization}/business/policies/{policy}/rollout/status: a serving agbot's report
 * (lib/rollout/status.ts), one item per agbot, with a `rolloutstatus` change row.
 */
export const handler = endpoint(rolloutsRoutes.operations.putRolloutStatus, {
  authorize: ({ caller, path }) => authorizeStatusWriter(caller, path),
  async handle({ caller, path, body, deps }) {
    const status = { ...body, agbot: caller.fullId, updatedAt: isoTimestamp(deps.clock) };
    if (!(await putRolloutStatus(path.organization, path.policy, status))) throw noPlan(path);
    return ok(`rollout status of '${rolloutName(path)}' stored`);
  },
});
