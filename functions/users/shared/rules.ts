import { type Caller, roleOf } from '#lib/auth/caller';
import { isRootUser } from '#tables/user/records';
import type { UserBody } from './schemas.ts';

export const MSG = {
  nonBlank: 'the password must be non-blank when creating a user',
  reserved: "The usernames 'apikey' and 'iamapikey' are reserved and cannot be used",
  noAdmin: 'a user without admin privilege can not give admin privilege',
  rootOrg: 'Only the root user and hub admins can exist in the root org',
  noHubAdmins: 'This user does not have permissions to make Hub Admins',
  hubAdminsInRoot: 'Hub Admin users must be created in the root org',
  hubAdminsWriteAdmins: 'Hub Admin users can only create or update hub admin or org admin users',
  badInput: 'bad input',
} as const;

const RESERVED = new Set(['apikey', 'iamapikey']);

/**
 * Upstream's checks on a POST or PUT of a user, in upstream's order; the first that fails is the
 * 400 message. `put` adds the empty-email rule. (Upstream skips the reserved-name rule on PUT,
 * which would let PUT create `apikey`; it is applied to both here.)
 */
export function userWriteProblem(
  caller: Caller,
  org: string,
  username: string,
  body: UserBody,
  mode: 'post' | 'put',
): string | undefined {
  const role = roleOf(caller);
  const admin = body.admin ?? false;
  const hubAdmin = body.hubAdmin ?? false;
  if (body.password == null || body.email == null) return MSG.nonBlank;
  if (RESERVED.has(username.toLowerCase())) return MSG.reserved;
  if (body.password.trim() === '') return MSG.nonBlank;
  if (isRootUser(org, username)) return MSG.noAdmin;
  if (admin && hubAdmin) return MSG.noAdmin;
  if (role === 'User' && admin) return MSG.noAdmin;
  if (org === 'root' && !hubAdmin) return MSG.rootOrg;
  if (role === 'AdminUser' && hubAdmin) return MSG.noHubAdmins;
  if (org !== 'root' && hubAdmin) return MSG.hubAdminsInRoot;
  if (mode === 'put' && body.email === '') return MSG.badInput;
  if (role === 'HubAdmin' && !admin && !hubAdmin) return MSG.hubAdminsWriteAdmins;
  return undefined;
}
