import { endpoint } from '#functions/endpoint';
import { authorize } from '#lib/auth/access';
import { hashCredential } from '#lib/auth/authenticate';
import { identityTaken, isTaken } from '#lib/auth/identity-taken';
import { badInput, notFound } from '#lib/http/errors';
import { ok } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { insertUser } from '#tables/user/records';
import { usersRoutes } from './routes.ts';
import { userWriteProblem } from './shared/rules.ts';

/** POST /v1/orgs/{organization}/users/{username}: org admins (own org), hub admins, root create a user. */
export const handler = endpoint(usersRoutes.operations.postUser, {
  authorize: ({ caller, path }) =>
    authorize(caller, { type: 'user', org: path.organization, id: path.username, exists: false }, 'CREATE'),
  async handle({ caller, path, body, deps }) {
    const { organization: org, username } = path;
    const problem = userWriteProblem(caller, org, username, body, 'post');
    if (problem) throw badInput(problem);
    const result = await insertUser(
      org,
      username,
      {
        passwordHash: await hashCredential(body.password ?? ''),
        admin: body.admin ?? false,
        hubAdmin: body.hubAdmin ?? false,
        email: body.email ?? '',
        updatedBy: caller.fullId,
      },
      isoTimestamp(deps.clock),
    );
    if (result === 'no-org') throw notFound(`org '${org}' not found`);
    if (isTaken(result)) throw identityTaken(org, username, 'user', result);
    if (result === 'exists') throw badInput(`user not added or updated: ${org}/${username}`);
    return ok(`${org}/${username} user added successfully`);
  },
});
