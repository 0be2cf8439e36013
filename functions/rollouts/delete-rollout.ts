import { endpoint } from '#functions/endpoint';
import { noContent } from '#lib/http/responses';
import { deleteRollout } from '#tables/rollout/records';
import { rolloutsRoutes } from './routes.ts';
import { authorizeRolloutWrite, noPlan } from './shared/access.ts';

/** DELETE /v1/orgs/{organization}/business/policies/{policy}/rollout: removes the plan and the statuses. */
export const handler = endpoint(rolloutsRoutes.operations.deleteRollout, {
  authorize: ({ caller, path }) => authorizeRolloutWrite(caller, path),
  async handle({ path }) {
    if (!(await deleteRollout(path.organization, path.policy))) throw noPlan(path);
    return noContent();
  },
});
