import { endpoint } from '#functions/endpoint';
import { badInput, notFound } from '#lib/http/errors';
import { noContent } from '#lib/http/responses';
import { deleteUserCascade } from '#tables/cascade';
import { isRootUser, userDeletionCounts } from '#tables/user/records';
import { usersRoutes } from './routes.ts';
import { authorizeUser } from './shared/target.ts';
import { canSeeUser } from './shared/visible.ts';

/** DELETE /v1/orgs/{organization}/users/{username}: the user, its admins, root; takes its nodes and agbots along. */
export const handler = endpoint(usersRoutes.operations.deleteUser, {
  authorize: ({ caller, path }) => authorizeUser(caller, path, 'WRITE'),
  async handle({ caller, path, target }) {
    const { organization: org, username } = path;
    if (isRootUser(org, username)) throw badInput('Cannot delete the exchange root user');
    const missing = notFound(`user '${org}/${username}' not found`);
    if (!target || !canSeeUser(caller, target)) throw missing;
    if (!(await deleteUserCascade(org, username, userDeletionCounts(target)))) throw missing;
    return noContent();
  },
});
