import { endpoint } from '#functions/endpoint';
import { hashCredential } from '#lib/auth/authenticate';
import { badInput, notFound } from '#lib/http/errors';
import { ok } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { type UserFields, updateUser } from '#tables/user/records';
import { usersRoutes } from './routes.ts';
import { mayPatch, patchAttribute, patchProblem } from './shared/patch-rules.ts';
import { authorizeUser } from './shared/target.ts';

/** PATCH /v1/orgs/{organization}/users/{username}: exactly one of password, admin, hubAdmin, email. */
export const handler = endpoint(usersRoutes.operations.patchUser, {
  authorize: ({ caller, path }) => authorizeUser(caller, path, 'WRITE'),
  async handle({ caller, path, body, deps }) {
    const { organization: org, username } = path;
    const attribute = patchAttribute(body);
    if (!attribute) throw badInput('bad input');
    const problem = patchProblem(caller, org, username, body, attribute);
    if (problem) throw badInput(problem);
    const fields: Partial<UserFields> = { updatedBy: caller.fullId };
    if (attribute === 'admin') fields.admin = body.admin === true;
    if (attribute === 'hubadmin') fields.hubAdmin = body.hubAdmin === true;
    if (attribute === 'email') fields.email = body.email ?? '';
    // As upstream, an empty password removes it: the user can no longer log in.
    if (attribute === 'password')
      fields.passwordHash = body.password ? await hashCredential(body.password) : undefined;
    const now = isoTimestamp(deps.clock);
    const result = await updateUser(
      org,
      username,
      (user) => (mayPatch(caller, user, attribute) ? fields : undefined),
      now,
    );
    if (result === 'not-found') throw notFound(`user '${org}/${username}' not found`);
    return ok(`attribute '${attribute}' of user '${org}/${username}' updated`);
  },
});
