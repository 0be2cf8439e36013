import { endpoint } from '#functions/endpoint';
import { ok } from '#lib/http/responses';
import { usersRoutes } from './routes.ts';
import { authorizeUser } from './shared/target.ts';

/**
 * POST /v1/orgs/{organization}/users/{username}/confirm: 201 when the credentials are valid and
 * may read this user (upstream checks nothing more).
 */
export const handler = endpoint(usersRoutes.operations.confirmUser, {
  authorize: ({ caller, path }) => authorizeUser(caller, path, 'READ'),
  handle: () => ok('confirmation successful'),
});
