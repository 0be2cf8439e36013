import { endpoint } from '#functions/endpoint';
import { rolloutsRoutes } from './routes.ts';
import { authorizeRolloutWrite } from './shared/access.ts';
import { act } from './shared/act.ts';

/** POST /v1/orgs/{organization}/business/policies/{policy}/rollout/retry: failed (or named) nodes back to waiting. */
export const handler = endpoint(rolloutsRoutes.operations.retryRollout, {
  authorize: ({ caller, path }) => authorizeRolloutWrite(caller, path),
  handle: ({ path, body }) =>
    act(
      path,
      body.failed ? 'failed nodes retried' : `${body.nodes?.length} node(s) retried`,
      (control, seq) => ({
        ...control,
        retries: [
          ...control.retries,
          { seq, ...(body.failed ? { failed: true } : { nodes: body.nodes ?? [] }) },
        ],
      }),
    ),
});
