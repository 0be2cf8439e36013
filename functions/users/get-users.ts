import { endpoint } from '#functions/endpoint';
import { authorize } from '#lib/auth/access';
import { orgPath } from '#lib/ids';
import { listUsers } from '#tables/user/records';
import { usersResponse } from './shared/target.ts';
import { canSeeUser } from './shared/visible.ts';

/** GET /v1/orgs/{organization}/users: org admins, hub admins (admins only) and root. */
export const handler = endpoint({
  path: orgPath,
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
