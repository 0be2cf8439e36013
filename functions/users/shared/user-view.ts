import type * as z from 'zod';
import { MASKED } from '#lib/auth/secrets';
import { isRootUser, type UserRecord } from '#tables/user/records';
import type { user as userResponse } from './responses.ts';

/**
 * The user as upstream returns it (keyed `org/username`); root/root's password is configured, not
 * stored. Typed by the response schema, so a stored field that is not in it fails `tsc`.
 */
export function userView(user: UserRecord, rootCanLogIn: boolean): z.infer<typeof userResponse> {
  const hasPassword = Boolean(user.passwordHash) || (isRootUser(user.org, user.username) && rootCanLogIn);
  return {
    admin: user.admin,
    apikeys: [],
    email: user.email,
    hubAdmin: user.hubAdmin,
    lastUpdated: user.lastUpdated,
    password: hasPassword ? MASKED : '',
    updatedBy: user.updatedBy,
  };
}
