import { endpoint } from '#functions/endpoint';
import { rolloutsRoutes } from './routes.ts';
import { authorizeRolloutWrite } from './shared/access.ts';
import { act } from './shared/act.ts';

/** POST /v1/orgs/{organization}/business/policies/{policy}/rollout/promote: approve a wave (default: the next). */
export const handler = endpoint(rolloutsRoutes.operations.promoteRollout, {
  authorize: ({ caller, path }) => authorizeRolloutWrite(caller, path),
  handle: ({ path, body }) =>
    act(
      path,
      body.wave === undefined ? 'next wave promoted' : `wave ${body.wave} promoted`,
      (control, seq) => ({
        ...control,
        promote: { seq, ...(body.wave === undefined ? {} : { wave: body.wave }) },
      }),
    ),
});
