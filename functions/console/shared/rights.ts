import { type Caller, roleOf } from '#lib/auth/caller';
import type { WhoAmI } from './schemas.ts';

/**
 * What the console may offer the caller (GET /v1/console/whoami). Advice for the page only: every route
 * still authorizes each request itself (docs/exchange.md#from-access-to-permission), so a page that
 * showed too much would get 403s, never data.
 */
export function whoAmI(caller: Caller): WhoAmI {
  const role = roleOf(caller);
  const superUser = role === 'SuperUser';
  const orgAdmin = role === 'AdminUser' || superUser;
  return {
    id: caller.fullId,
    org: caller.org,
    kind: caller.kind,
    role,
    admin: caller.kind === 'user' ? caller.admin : superUser,
    hubAdmin: caller.kind === 'user' ? caller.hubAdmin : superUser,
    can: {
      readNodes: role === 'User' || orgAdmin || role === 'Agbot',
      writeAllNodes: orgAdmin,
      controlRollouts: orgAdmin,
      writeSecrets: orgAdmin,
      manageUsers: orgAdmin || role === 'HubAdmin',
      listOrgs: superUser || role === 'HubAdmin',
    },
  };
}
