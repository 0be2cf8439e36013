import { endpoint } from '#functions/endpoint';
import { usersRoutes } from './routes.ts';
import { authorizeUser, usersResponse } from './shared/target.ts';
import { canSeeUser } from './shared/visible.ts';

/** GET /v1/orgs/{organization}/users/{username}: the user itself, its admins, root. */
export const handler = endpoint(usersRoutes.operations.getUser, {
  authorize: ({ caller, path }) => authorizeUser(caller, path, 'READ'),
  handle: ({ caller, target, deps }) =>
    usersResponse(target && canSeeUser(caller, target) ? [target] : [], deps.config()),
});
