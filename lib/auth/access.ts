import { accessDenied, notFound } from '#lib/http/errors';
import {
  type Caller,
  IBM_ORG,
  isHubAdmin,
  isMultiTenantAgbot,
  isUserType,
  type Role,
  roleOf,
} from './caller.ts';
import { roleHasPermission } from './permissions.ts';

/**
 * What a request touches. `id: '#'` means "all of them in the org" (list endpoints). `exists` is
 * whether the record was found; `owner` is `org/username` for nodes and agbots.
 */
export type Target =
  | { type: 'org'; org: string }
  | { type: 'user'; org: string; id: string; exists: boolean; hubAdmin?: boolean }
  | { type: 'node'; org: string; id: string; exists: boolean; owner?: string | undefined }
  | { type: 'agbot'; org: string; id: string; exists: boolean; owner?: string | undefined }
  | { type: 'action' };

/** READ/WRITE/CREATE are mapped to a permission per caller and target; anything else is a permission. */
export type Access = 'READ' | 'WRITE' | 'CREATE' | (string & {});

const ALL = '#';
const targetOrg = (target: Target): string | undefined => (target.type === 'action' ? undefined : target.org);
const targetId = (target: Target): string => {
  if (target.type === 'action') return '';
  if (target.type === 'org') return target.org;
  return `${target.org}/${target.id}`;
};

const readWrite = (access: Access, read: string, write: string): string =>
  access === 'READ' ? read : access === 'WRITE' ? write : access;

/** Same-org mapping for users, org admins, hub admins and root (docs/exchange.md#from-access-to-permission). */
function forUserSameOrg(caller: Caller, target: Target, access: Access): string {
  switch (target.type) {
    case 'user': {
      if (access === 'CREATE') return 'CREATE_USER';
      const self = target.id === caller.id;
      // Upstream: a hub admin caller (or the whole-org wildcard) maps to *_MY_USERS; routes then filter.
      const mine = isHubAdmin(caller) || target.hubAdmin === true || target.id === ALL;
      if (access === 'READ') return self ? 'READ_MYSELF' : mine ? 'READ_MY_USERS' : 'READ_ALL_USERS';
      if (access === 'WRITE') {
        if (self) return 'WRITE_MYSELF';
        if (target.org === 'root' && target.id === 'root') return 'WRITE_SUPERUSER';
        return mine ? 'WRITE_MY_USERS' : 'WRITE_ALL_USERS';
      }
      return access;
    }
    case 'node':
    case 'agbot': {
      const kind = target.type === 'node' ? 'NODES' : 'AGBOTS';
      const mine = !target.exists || target.id === ALL || target.owner === caller.fullId;
      return readWrite(
        access,
        mine ? `READ_MY_${kind}` : `READ_ALL_${kind}`,
        mine ? `WRITE_MY_${kind}` : `WRITE_ALL_${kind}`,
      );
    }
    case 'org':
      if (access === 'CREATE') return 'CREATE_ORGS';
      return readWrite(access, 'READ_MY_ORG', caller.org === 'root' ? 'WRITE_ALL_ORGS' : 'WRITE_MY_ORG');
    case 'action':
      return access;
  }
}

function forHubAdminOtherOrg(target: Target, access: Access): string {
  if (target.type === 'user') {
    if (access === 'CREATE') return 'CREATE_USER';
    return readWrite(access, 'READ_MY_USERS', 'WRITE_MY_USERS');
  }
  if (target.type === 'org') {
    if (access === 'CREATE') return 'CREATE_ORGS';
    return readWrite(access, 'READ_OTHER_ORGS', 'WRITE_OTHER_ORGS');
  }
  if (target.type === 'agbot') return readWrite(access, 'READ_ALL_AGBOTS', 'WRITE_ALL_AGBOTS');
  return access;
}

function forNode(caller: Caller, target: Target, access: Access): string {
  switch (target.type) {
    case 'user':
      return readWrite(access, 'READ_ALL_USERS', 'WRITE_ALL_USERS');
    case 'node': {
      const scope =
        target.id === caller.id && target.org === caller.org
          ? 'MYSELF'
          : target.id === ALL
            ? 'MY_NODES'
            : 'ALL_NODES';
      return readWrite(access, `READ_${scope}`, `WRITE_${scope}`);
    }
    case 'agbot':
      return readWrite(access, 'READ_ALL_AGBOTS', 'WRITE_ALL_AGBOTS');
    case 'org':
      return access === 'READ' ? 'READ_MY_ORG' : access;
    case 'action':
      return access;
  }
}

function forAgbot(caller: Caller, target: Target, access: Access): string {
  switch (target.type) {
    case 'node':
      return readWrite(access, 'READ_ALL_NODES', 'WRITE_ALL_NODES');
    case 'agbot': {
      const scope =
        target.id === caller.id && target.org === caller.org
          ? 'MYSELF'
          : target.id === ALL
            ? 'MY_AGBOTS'
            : 'ALL_AGBOTS';
      return readWrite(access, `READ_${scope}`, `WRITE_${scope}`);
    }
    case 'user':
      return readWrite(access, 'READ_ALL_USERS', 'WRITE_ALL_USERS');
    case 'org':
      return access === 'READ' ? 'READ_MY_ORG' : access;
    case 'action':
      return access;
  }
}

/** Any caller touching another org in a way none of the rules above covers. */
function forOtherOrg(caller: Caller, target: Target, access: Access): string {
  if (access === 'CREATE') return 'CREATE_IN_OTHER_ORGS';
  if (access === 'WRITE_AGENT_CONFIG_MGMT' && isUserType(caller)) return 'WRITE_OTHER_ORGS';
  if (target.type === 'org' && access === 'READ' && target.org === IBM_ORG && isUserType(caller))
    return 'READ_IBM_ORGS';
  return readWrite(access, 'READ_OTHER_ORGS', 'WRITE_OTHER_ORGS');
}

/** The permission a caller needs for `access` to `target`, or `'not-found'` (docs/exchange.md#from-access-to-permission). */
export function requiredPermission(caller: Caller, target: Target, access: Access): string | 'not-found' {
  const org = targetOrg(target);
  const sameOrg = org === undefined || org === caller.org;
  const role: Role = roleOf(caller);
  if (isUserType(caller)) {
    if (sameOrg) return forUserSameOrg(caller, target, access);
    if (role === 'HubAdmin') return forHubAdminOtherOrg(target, access);
  } else if (caller.kind === 'node') {
    if (sameOrg || (org === IBM_ORG && (access === 'READ' || access === 'SEND_MSG_TO_AGBOT'))) {
      return forNode(caller, target, access);
    }
  } else if (sameOrg || isMultiTenantAgbot(caller)) {
    return forAgbot(caller, target, access);
  }
  const exists = target.type === 'org' || target.type === 'action' || target.exists;
  if (!exists && access === 'READ') return 'not-found';
  return forOtherOrg(caller, target, access);
}

/** Throws 403 (or upstream's cross-org 404) unless the caller may perform `access` on `target`. */
export function authorize(caller: Caller, target: Target, access: Access): void {
  const permission = requiredPermission(caller, target, access);
  if (permission === 'not-found') throw notFound(`resource '${targetId(target)}' not found`);
  if (roleHasPermission(roleOf(caller), permission)) return;
  throw accessDenied(
    `Access denied: '${caller.fullId}' does not have authorization: ${permission} ${target.type}=${targetId(target)}`,
  );
}
