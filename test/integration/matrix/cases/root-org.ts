import type { EndpointCases } from '#test/support/matrix';
import { freshId } from '#test/support/world';

/**
 * Org `root`, home of root and the hub admins: their same-org cases. Identities of `same` are the
 * other-org callers here. Writes leave the org as bootstrap made it.
 */
const outsiders = { 'org admin (other org)': 403, 'user (other org)': 403, 'node (other org)': 403 } as const;

export const rootOrgCases: EndpointCases[] = [
  {
    operation: 'GET /v1/orgs/{organization}',
    variant: 'org root',
    prepare: () => ({ path: '/v1/orgs/root' }),
    expect: { 'root (same org)': 200, 'hub admin (same org)': 200, ...outsiders },
  },
  {
    // Hub admins may write other orgs, never their own: root's org is root's alone (WRITE_ALL_ORGS).
    operation: 'PUT /v1/orgs/{organization}',
    variant: 'org root',
    prepare: () => ({
      path: '/v1/orgs/root',
      body: { label: 'Root Org', description: 'Organization for the root user' },
    }),
    expect: { 'root (same org)': 201, 'hub admin (same org)': 403, ...outsiders },
  },
  {
    operation: 'GET /v1/orgs/{organization}/status',
    variant: 'org root',
    prepare: () => ({ path: '/v1/orgs/root/status' }),
    expect: { 'root (same org)': 200, 'hub admin (same org)': 200, ...outsiders },
  },
  {
    operation: 'GET /v1/orgs/{organization}/users',
    variant: 'org root',
    prepare: () => ({ path: '/v1/orgs/root/users' }),
    expect: { 'root (same org)': 200, 'hub admin (same org)': 200, ...outsiders },
  },
  {
    operation: 'GET /v1/orgs/{organization}/users/{username}',
    variant: 'the hub admin itself',
    prepare: (w) => ({ path: `/v1/orgs/root/users/${w.hubAdmin.user.split('/')[1]}` }),
    expect: { 'root (same org)': 200, 'hub admin (same org)': 200, ...outsiders },
  },
  {
    operation: 'POST /v1/orgs/{organization}/users/{username}',
    variant: 'a new hub admin',
    prepare: () => ({
      path: `/v1/orgs/root/users/${freshId('hub')}`,
      body: { password: 'hub-pw', admin: false, hubAdmin: true, email: 'hub@example.com' },
    }),
    expect: { 'root (same org)': 201, 'hub admin (same org)': 201, ...outsiders },
  },
  {
    // Hub admins hold no node permission at all, not even in their own org.
    operation: 'GET /v1/orgs/{organization}/nodes',
    variant: 'org root',
    prepare: () => ({ path: '/v1/orgs/root/nodes' }),
    expect: { 'root (same org)': 404, 'hub admin (same org)': 403, ...outsiders },
  },
];
