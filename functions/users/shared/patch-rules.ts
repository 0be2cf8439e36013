import { type Caller, roleOf } from '#lib/auth/caller';
import { isRootUser, type UserRecord } from '#tables/user/records';
import { MSG } from './rules.ts';
import type { UserPatchBody } from './schemas.ts';
import { canSeeUser } from './visible.ts';

type PatchBody = UserPatchBody;

/** Upstream's attribute names, as they appear in its success message (note `hubadmin`). */
export type PatchAttribute = 'admin' | 'email' | 'hubadmin' | 'password';

/** The one attribute a PATCH sets; undefined unless exactly one is present. */
export function patchAttribute(body: PatchBody): PatchAttribute | undefined {
  const present = (
    [
      ['admin', body.admin],
      ['email', body.email],
      ['hubadmin', body.hubAdmin],
      ['password', body.password],
    ] as const
  ).filter(([, value]) => value != null);
  return present.length === 1 ? present[0]?.[0] : undefined;
}

/** Upstream's PATCH checks, in its order; the first that fails is the 400 message. */
export function patchProblem(
  caller: Caller,
  org: string,
  username: string,
  body: PatchBody,
  attribute: PatchAttribute,
) {
  const role = roleOf(caller);
  const rootTarget = isRootUser(org, username);
  if (rootTarget && caller.kind !== 'root') return `user not updated: ${username}`;
  if (rootTarget && (attribute === 'admin' || attribute === 'hubadmin'))
    return `user not updated: ${username}`;
  // Root's password is EXCHANGE_ROOT_PW; storing another would silently change nothing.
  if (rootTarget && attribute === 'password')
    return `user not updated: ${username}: root's password comes from EXCHANGE_ROOT_PW`;
  if ((role === 'HubAdmin' || role === 'User') && body.admin === true) return MSG.noAdmin;
  if (attribute === 'email' && body.email === '') return MSG.badInput;
  if ((role === 'AdminUser' || role === 'User') && body.hubAdmin === true) return MSG.noHubAdmins;
  if (org !== 'root' && body.hubAdmin === true) return MSG.hubAdminsInRoot;
  if (role === 'User' && `${org}/${username}` !== caller.fullId) return MSG.badInput;
  if (role === 'AdminUser' && org !== caller.org) return MSG.badInput;
  return undefined;
}

/**
 * Whether the caller may apply `attribute` to `user` as it is now (upstream's update filters):
 * `admin` never on hub admins, `hubadmin` never on org admins, and only admins above the user.
 */
export function mayPatch(caller: Caller, user: UserRecord, attribute: PatchAttribute): boolean {
  const role = roleOf(caller);
  const rootTarget = isRootUser(user.org, user.username);
  if (attribute === 'admin') {
    if (user.hubAdmin || rootTarget || role === 'User') return false;
    return role !== 'AdminUser' || user.org === caller.org;
  }
  if (attribute === 'hubadmin') {
    if (user.admin || rootTarget || role === 'User' || role === 'AdminUser') return false;
    return role !== 'HubAdmin' || user.hubAdmin;
  }
  return canSeeUser(caller, user);
}
