import { endpoint } from '#functions/endpoint';
import { rolloutsRoutes } from './routes.ts';
import { authorizeRolloutWrite } from './shared/access.ts';
import { act } from './shared/act.ts';

/** POST /v1/orgs/{organization}/business/policies/{policy}/rollout/pause: stop admitting nodes. */
export const handler = endpoint(rolloutsRoutes.operations.pauseRollout, {
  authorize: ({ caller, path }) => authorizeRolloutWrite(caller, path),
  handle: ({ path, body }) =>
    act(path, 'paused', (control, seq) => ({
      ...control,
      pause: { seq, ...(body.reason === undefined ? {} : { reason: body.reason }) },
    })),
});
