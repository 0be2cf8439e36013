import { endpoint } from '#functions/endpoint';
import { json } from '#lib/http/responses';
import { rolloutsRoutes } from './routes.ts';
import { authorizeRolloutRead, existingRollout } from './shared/access.ts';

/** GET /v1/orgs/{organization}/business/policies/{policy}/rollout: the plan and the operator's actions (docs/rollouts.md). */
export const handler = endpoint(rolloutsRoutes.operations.getRollout, {
  authorize: ({ caller, path }) => authorizeRolloutRead(caller, path),
  async handle({ path }) {
    return json(200, await existingRollout(path));
  },
});
