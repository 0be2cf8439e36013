import { endpoint } from '#functions/endpoint';
import { rolloutsRoutes } from './routes.ts';
import { authorizeRolloutWrite } from './shared/access.ts';
import { act } from './shared/act.ts';

/** POST /v1/orgs/{organization}/business/policies/{policy}/rollout/resume: go on; failures so far no longer count. */
export const handler = endpoint(rolloutsRoutes.operations.resumeRollout, {
  authorize: ({ caller, path }) => authorizeRolloutWrite(caller, path),
  handle: ({ path }) => act(path, 'resumed', (control, seq) => ({ ...control, resume: { seq } })),
});
