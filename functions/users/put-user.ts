import { endpoint } from '#functions/endpoint';
import { hashCredential } from '#lib/auth/authenticate';
import { identityTaken, isTaken } from '#lib/auth/identity-taken';
import { badInput, notFound } from '#lib/http/errors';
import { ok } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { insertUser, type UserFields, updateUser } from '#tables/user/records';
import { usersRoutes } from './routes.ts';
import { userWriteProblem } from './shared/rules.ts';
import { authorizeUser } from './shared/target.ts';
import { canSeeUser } from './shared/visible.ts';

/**
 * PUT /v1/orgs/{organization}/users/{username}: replaces the user if the caller may see it, else
 * creates it (a user that exists but is hidden from the caller → 400, as upstream).
 */
export const handler = endpoint(usersRoutes.operations.putUser, {
  authorize: ({ caller, path }) => authorizeUser(caller, path, 'WRITE'),
  async handle({ caller, path, body, deps }) {
    const { organization: org, username } = path;
    const problem = userWriteProblem(caller, org, username, body, 'put');
    if (problem) throw badInput(problem);
    const fields: UserFields = {
      passwordHash: await hashCredential(body.password ?? ''),
      admin: body.admin ?? false,
      hubAdmin: body.hubAdmin ?? false,
      email: body.email ?? '',
      updatedBy: caller.fullId,
    };
    const now = isoTimestamp(deps.clock);
    const updated = await updateUser(
      org,
      username,
      (user) => (canSeeUser(caller, user) ? fields : undefined),
      now,
    );
    if (updated === 'updated') return ok('user updated successfully');
    const created = await insertUser(org, username, fields, now);
    if (created === 'no-org') throw notFound(`org '${org}' not found`);
    if (isTaken(created)) throw identityTaken(org, username, 'user', created);
    if (created === 'exists') throw badInput(`user not added or updated: ${org}/${username}`);
    return ok(`${org}/${username} user added successfully`);
  },
});
