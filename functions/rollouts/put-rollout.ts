import { endpoint } from '#functions/endpoint';
import { notFound } from '#lib/http/errors';
import { ok } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { getRollout, putRolloutPlan } from '#tables/rollout/records';
import { rolloutsRoutes } from './routes.ts';
import { authorizeRolloutWrite, rolloutName } from './shared/access.ts';

/**
 * PUT /v1/orgs/{organization}/business/policies/{policy}/rollout: sets the plan (validated by
 * lib/rollout/plan.ts), keeping the operator's actions; a `rollout` change row goes with it.
 */
export const handler = endpoint(rolloutsRoutes.operations.putRollout, {
  authorize: ({ caller, path }) => authorizeRolloutWrite(caller, path),
  async handle({ path, body, deps }) {
    const existed = (await getRollout(path.organization, path.policy)) !== undefined;
    if (!(await putRolloutPlan(path.organization, path.policy, body, isoTimestamp(deps.clock), existed)))
      throw notFound(`business policy '${rolloutName(path)}' not found`);
    return ok(`rollout plan of '${rolloutName(path)}' ${existed ? 'updated' : 'set'}`);
  },
});
