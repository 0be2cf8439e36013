import { endpoint } from '#functions/endpoint';
import { rolloutsRoutes } from './routes.ts';
import { authorizeRolloutWrite } from './shared/access.ts';
import { act } from './shared/act.ts';

/** POST /v1/orgs/{organization}/business/policies/{policy}/rollout/abort: pause, or roll back (default: the plan's onAbort). */
export const handler = endpoint(rolloutsRoutes.operations.abortRollout, {
  authorize: ({ caller, path }) => authorizeRolloutWrite(caller, path),
  handle: ({ path, body }) =>
    act(path, `aborted (${body.action ?? 'as the plan says'})`, (control, seq) => ({
      ...control,
      abort: { seq, ...(body.action === undefined ? {} : { action: body.action }) },
    })),
});
