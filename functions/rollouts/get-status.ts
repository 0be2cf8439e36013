import { endpoint } from '#functions/endpoint';
import { json } from '#lib/http/responses';
import { listRolloutStatuses } from '#tables/rollout/records';
import { rolloutsRoutes } from './routes.ts';
import { authorizeRolloutRead, existingRollout, rolloutName } from './shared/access.ts';

/** GET /v1/orgs/{organization}/business/policies/{policy}/rollout/status: every serving agbot's last report. */
export const handler = endpoint(rolloutsRoutes.operations.getRolloutStatus, {
  authorize: ({ caller, path }) => authorizeRolloutRead(caller, path),
  async handle({ path }) {
    await existingRollout(path);
    const statuses = await listRolloutStatuses(path.organization, path.policy);
    return json(200, { policy: rolloutName(path), statuses });
  },
});
