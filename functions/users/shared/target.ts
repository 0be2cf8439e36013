import { type Access, authorize } from '#lib/auth/access';
import type { Caller } from '#lib/auth/caller';
import type { ExchangeConfig } from '#lib/config';
import { emptyList } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import { getUser, type UserRecord } from '#tables/user/records';
import type { UserPath } from './schemas.ts';
import { userView } from './user-view.ts';

export { userPath } from './schemas.ts';

/** Loads the user (its existence and hub-admin flag decide the permission) and authorizes `access`. */
export async function authorizeUser(
  caller: Caller,
  path: UserPath,
  access: Access,
): Promise<UserRecord | undefined> {
  const user = await getUser(path.organization, path.username);
  authorize(
    caller,
    {
      type: 'user',
      org: path.organization,
      id: path.username,
      exists: user !== undefined,
      hubAdmin: user?.hubAdmin,
    },
    access,
  );
  return user;
}

/** `{users: {"org/u": User}, lastIndex: 0}`, or upstream's 404 with the empty map. */
export function usersResponse(users: UserRecord[], config: ExchangeConfig) {
  if (users.length === 0) throw emptyList({ users: {}, lastIndex: 0 });
  const rootCanLogIn = config.rootEnabled && Boolean(config.rootPassword);
  const entries = users.map((user) => [`${user.org}/${user.username}`, userView(user, rootCanLogIn)]);
  return json(200, { users: Object.fromEntries(entries), lastIndex: 0 });
}
