import { endpoint } from '#functions/endpoint';
import { authorize } from '#lib/auth/access';
import { listUsers } from '#tables/user/records';
import { usersRoutes } from './routes.ts';
import { usersResponse } from './shared/target.ts';
import { canSeeUser } from './shared/visible.ts';

/** GET /v1/orgs/{organization}/users: org admins, hub admins (admins only) and root. */
export const handler = endpoint(usersRoutes.operations.getUsers, {
  authorize: ({ caller, path }) =>
    authorize(caller, { type: 'user', org: path.organization, id: '#', exists: true }, 'READ'),
  async handle({ caller, path, deps }) {
    const users = await listUsers(path.organization);
    return usersResponse(
      users.filter((user) => canSeeUser(caller, user)),
      deps.config(),
    );
  },
});
