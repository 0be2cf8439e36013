import type { Caller } from '#lib/auth/caller';
import { roleOf } from '#lib/auth/caller';
import { isRootUser } from '#tables/user/records';

/**
 * Upstream's route filters on users, applied after authorization: a plain user sees only itself,
 * an org admin the non-hub-admins of its org, a hub admin only admins (org or hub), and nobody but
 * root sees root/root. What a caller cannot see answers 404.
 */
export function canSeeUser(
  caller: Caller,
  user: { org: string; username: string; admin: boolean; hubAdmin: boolean },
) {
  if (caller.kind === 'root') return true;
  if (isRootUser(user.org, user.username)) return false;
  switch (roleOf(caller)) {
    case 'User':
      return user.org === caller.org && user.username === caller.id;
    case 'AdminUser':
      return user.org === caller.org && !user.hubAdmin;
    case 'HubAdmin':
      return user.admin || user.hubAdmin;
    case 'SuperUser':
      return true;
    default:
      return false;
  }
}
