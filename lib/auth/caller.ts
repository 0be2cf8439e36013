/** Who is calling, as resolved from the Basic credentials. */
export type Caller =
  | { kind: 'root'; org: 'root'; id: 'root'; fullId: 'root/root' }
  | { kind: 'user'; org: string; id: string; fullId: string; admin: boolean; hubAdmin: boolean }
  /** `publicKey`: from the node's principal item, when it holds one (functions/agbot-messages). */
  | { kind: 'node'; org: string; id: string; fullId: string; owner: string; publicKey?: string }
  | { kind: 'agbot'; org: string; id: string; fullId: string; owner: string };

export type Role = 'SuperUser' | 'HubAdmin' | 'AdminUser' | 'User' | 'Node' | 'Agbot';

export const ROOT_CALLER: Caller = { kind: 'root', org: 'root', id: 'root', fullId: 'root/root' };

/** The org whose agbots serve every org (multi-tenant agbots). */
export const IBM_ORG = 'IBM';
export const ROOT_ORG = 'root';

export function roleOf(caller: Caller): Role {
  switch (caller.kind) {
    case 'root':
      return 'SuperUser';
    case 'node':
      return 'Node';
    case 'agbot':
      return 'Agbot';
    case 'user':
      // Hub-admin semantics only apply to users of the root org.
      if (caller.hubAdmin && caller.org === ROOT_ORG) return caller.admin ? 'SuperUser' : 'HubAdmin';
      return caller.admin ? 'AdminUser' : 'User';
  }
}

export const isUserType = (caller: Caller): caller is Extract<Caller, { kind: 'root' | 'user' }> =>
  caller.kind === 'root' || caller.kind === 'user';

export const isMultiTenantAgbot = (caller: Caller): boolean =>
  caller.kind === 'agbot' && caller.org === IBM_ORG;

export const isHubAdmin = (caller: Caller): boolean => roleOf(caller) === 'HubAdmin';
export const isOrgAdmin = (caller: Caller): boolean => roleOf(caller) === 'AdminUser';
export const isSuperUser = (caller: Caller): boolean => roleOf(caller) === 'SuperUser';
