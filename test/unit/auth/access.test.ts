import { describe, expect, it } from 'vitest';
import { type Access, authorize, requiredPermission, type Target } from '#lib/auth/access';
import { type Caller, ROOT_CALLER } from '#lib/auth/caller';
import { HttpError } from '#lib/http/errors';

const user = (org: string, id: string, flags: { admin?: boolean; hubAdmin?: boolean } = {}): Caller => ({
  kind: 'user',
  org,
  id,
  fullId: `${org}/${id}`,
  admin: flags.admin ?? false,
  hubAdmin: flags.hubAdmin ?? false,
});
const node = (org: string, id: string): Caller => ({
  kind: 'node',
  org,
  id,
  fullId: `${org}/${id}`,
  owner: `${org}/u`,
});
const agbot = (org: string, id: string): Caller => ({
  kind: 'agbot',
  org,
  id,
  fullId: `${org}/${id}`,
  owner: `${org}/u`,
});

const callers = {
  root: ROOT_CALLER,
  hubAdmin: user('root', 'hub', { hubAdmin: true }),
  orgAdmin: user('o', 'admin', { admin: true }),
  user: user('o', 'u'),
  otherUser: user('o', 'u2'),
  node: node('o', 'n1'),
  agbot: agbot('o', 'a1'),
  mtAgbot: agbot('IBM', 'mt'),
};
type Who = keyof typeof callers;

const org = (id: string): Target => ({ type: 'org', org: id });
const ownNode: Target = { type: 'node', org: 'o', id: 'n1', exists: true, owner: 'o/u' };
const missingNode: Target = { type: 'node', org: 'o', id: 'ghost', exists: false };
const otherOrgNode: Target = { type: 'node', org: 'p', id: 'n9', exists: true, owner: 'p/x' };
const otherOrgMissingNode: Target = { type: 'node', org: 'p', id: 'ghost', exists: false };
const plainUser: Target = { type: 'user', org: 'o', id: 'u', exists: true };
const otherOrgUser: Target = { type: 'user', org: 'p', id: 'x', exists: true };
const action: Target = { type: 'action' };
const ibm = org('IBM');

/** [who, target, access, expected]: 'ok', 403 or 404, from docs/exchange.md#authorization and the endpoint sections. */
const cases: [Who, Target, Access, 'ok' | 403 | 404][] = [
  // Orgs
  ...(['root', 'hubAdmin', 'orgAdmin', 'user', 'node', 'agbot'] as Who[]).map(
    (who): [Who, Target, Access, 'ok'] => [who, org('o'), 'READ', 'ok'],
  ),
  ['orgAdmin', org('p'), 'READ', 403],
  ['user', org('p'), 'READ', 403],
  ['node', org('p'), 'READ', 403],
  ['agbot', org('p'), 'READ', 403],
  ['mtAgbot', org('p'), 'READ', 'ok'],
  ['user', ibm, 'READ', 'ok'],
  ['node', ibm, 'READ', 'ok'],
  ['root', org('new'), 'CREATE', 'ok'],
  ['hubAdmin', org('new'), 'CREATE', 'ok'],
  ['orgAdmin', org('new'), 'CREATE', 403],
  ['user', org('new'), 'CREATE', 403],
  ['orgAdmin', org('o'), 'WRITE', 'ok'],
  ['user', org('o'), 'WRITE', 403],
  ['hubAdmin', org('o'), 'WRITE', 'ok'],
  ['hubAdmin', org('root'), 'WRITE', 403],
  ['hubAdmin', org('o'), 'DELETE_ORG', 'ok'],
  ['orgAdmin', org('o'), 'DELETE_ORG', 403],
  // Nodes
  ['user', ownNode, 'READ', 'ok'],
  ['otherUser', ownNode, 'READ', 403],
  ['otherUser', missingNode, 'WRITE', 'ok'],
  ['orgAdmin', ownNode, 'WRITE', 'ok'],
  ['hubAdmin', ownNode, 'READ', 403],
  ['node', ownNode, 'READ', 'ok'],
  ['node', { ...ownNode, id: 'n2' }, 'READ', 403],
  ['agbot', ownNode, 'READ', 'ok'],
  ['agbot', ownNode, 'WRITE', 403],
  ['mtAgbot', otherOrgNode, 'READ', 'ok'],
  ['user', otherOrgNode, 'READ', 403],
  ['user', otherOrgMissingNode, 'READ', 404],
  ['user', otherOrgMissingNode, 'WRITE', 403],
  ['root', otherOrgMissingNode, 'READ', 404],
  ['root', otherOrgNode, 'WRITE', 'ok'],
  // Users
  ['user', plainUser, 'READ', 'ok'],
  ['otherUser', plainUser, 'READ', 403],
  ['orgAdmin', plainUser, 'WRITE', 'ok'],
  ['hubAdmin', otherOrgUser, 'READ', 'ok'],
  ['orgAdmin', otherOrgUser, 'READ', 403],
  ['user', { type: 'user', org: 'o', id: 'new', exists: false }, 'CREATE', 403],
  ['orgAdmin', { type: 'user', org: 'o', id: 'new', exists: false }, 'CREATE', 'ok'],
  ['node', plainUser, 'READ', 403],
  // Administration
  ['user', action, 'STATUS', 'ok'],
  ['node', action, 'STATUS', 403],
  ['agbot', action, 'STATUS', 403],
  ['user', action, 'ORGSTATUS', 403],
  ['orgAdmin', action, 'ORGSTATUS', 'ok'],
  ['hubAdmin', action, 'ORGSTATUS', 'ok'],
  ['hubAdmin', action, 'ADMIN', 403],
  ['orgAdmin', action, 'ADMIN', 403],
  ['root', action, 'ADMIN', 'ok'],
  // Agent file versions: always checked against org IBM
  ['agbot', ibm, 'WRITE_AGENT_CONFIG_MGMT', 'ok'],
  ['hubAdmin', ibm, 'WRITE_AGENT_CONFIG_MGMT', 'ok'],
  ['user', ibm, 'WRITE_AGENT_CONFIG_MGMT', 403],
  ['orgAdmin', ibm, 'WRITE_AGENT_CONFIG_MGMT', 403],
  ['node', ibm, 'WRITE_AGENT_CONFIG_MGMT', 403],
  ['node', ibm, 'READ_AGENT_CONFIG_MGMT', 'ok'],
  ['user', ibm, 'READ_AGENT_CONFIG_MGMT', 'ok'],
];

const describeTarget = (t: Target) =>
  t.type === 'action' ? 'action' : `${t.type} ${t.org}${'id' in t ? `/${t.id}` : ''}`;

describe('authorize (docs/exchange.md#authorization)', () => {
  it.each(
    cases.map(([who, target, access, expected]) => [who, access, describeTarget(target), expected, target]),
  )('%s %s on %s → %s', (who, access, _target, expected, target) => {
    const run = () => authorize(callers[who as Who], target as Target, access as Access);
    if (expected === 'ok') {
      expect(run).not.toThrow();
      return;
    }
    try {
      run();
      expect.unreachable('should have been refused');
    } catch (error) {
      expect(error).toBeInstanceOf(HttpError);
      expect((error as HttpError).status).toBe(expected);
    }
  });

  it('names the missing permission and the target in the 403 message', () => {
    expect(() => authorize(callers.otherUser, ownNode, 'READ')).toThrow(
      "Access denied: 'o/u2' does not have authorization: READ_ALL_NODES node=o/n1",
    );
  });

  it('maps a cross-org read of a missing resource to not-found', () => {
    expect(requiredPermission(callers.user, otherOrgMissingNode, 'READ')).toBe('not-found');
  });
});
