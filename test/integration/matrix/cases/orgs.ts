import type { CallerKey, EndpointCases, World } from '#test/support/matrix';
import { createOrg, createOrgWorld, freshId, type OrgWorld } from '#test/support/world';

/** Organizations (docs/exchange.md#organizations) and org status (docs/exchange.md#org-status). */
const orgBody = (org: string) => ({ label: `${org} label`, description: `${org} description` });

/** Reads and writes of org `same`: its own identities may read it; only its admin may write it. */
const sameOrgAccess = (read: number, write: number): Partial<Record<CallerKey, number>> => ({
  root: write,
  'hub admin': write,
  'org admin (same org)': write,
  'org admin (other org)': 403,
  'user (same org)': read,
  'user (other org)': 403,
  'node (same org)': read,
  'node (other org)': 403,
  'agbot (same org)': read,
  'agbot (other org)': 403,
});

const isSameOrgCaller = (caller: CallerKey) => caller.endsWith('(same org)');

/** Credentials of `caller` inside a throwaway world (for cases that delete the caller's own org). */
function sameOrgCaller(world: OrgWorld, caller: CallerKey) {
  if (caller.startsWith('org admin')) return world.admin;
  if (caller.startsWith('user')) return world.user;
  if (caller.startsWith('node')) return world.node;
  return world.agbot;
}

export const orgCases: EndpointCases[] = [
  {
    operation: 'GET /v1/orgs',
    prepare: () => ({ path: '/v1/orgs' }),
    expect: { root: 200, 'hub admin': 200, 'org admin': 200, user: 200, node: 200, agbot: 200 },
  },
  {
    operation: 'GET /v1/orgs/{organization}',
    prepare: (w) => ({ path: `/v1/orgs/${w.same.org}` }),
    expect: sameOrgAccess(200, 200),
  },
  {
    operation: 'GET /v1/orgs/{organization}',
    variant: 'missing org',
    prepare: () => ({ path: `/v1/orgs/${freshId('missing')}` }),
    expect: { root: 404, 'hub admin': 404, 'org admin (other org)': 403, 'user (other org)': 403 },
  },
  {
    // Identities of `same` try to create their own (existing) org; everyone else a new one.
    operation: 'POST /v1/orgs/{organization}',
    prepare: (w, caller) => {
      const org = isSameOrgCaller(caller) ? w.same.org : freshId('org');
      return { path: `/v1/orgs/${org}`, body: orgBody(org) };
    },
    expect: {
      root: 201,
      'hub admin': 201,
      'org admin (same org)': 403,
      'org admin (other org)': 403,
      'user (same org)': 403,
      'user (other org)': 403,
      'node (same org)': 403,
      'node (other org)': 403,
      'agbot (same org)': 403,
      'agbot (other org)': 403,
    },
  },
  {
    operation: 'PUT /v1/orgs/{organization}',
    prepare: (w) => ({ path: `/v1/orgs/${w.same.org}`, body: orgBody(w.same.org) }),
    expect: sameOrgAccess(403, 201),
  },
  {
    operation: 'PATCH /v1/orgs/{organization}',
    prepare: (w) => ({ path: `/v1/orgs/${w.same.org}`, body: { description: `${w.same.org} description` } }),
    expect: sameOrgAccess(403, 201),
  },
  {
    // Every case deletes an org of its own; same-org callers get a whole throwaway world.
    operation: 'DELETE /v1/orgs/{organization}',
    prepare: async (w: World, caller) => {
      const org = freshId('doomed');
      if (!isSameOrgCaller(caller)) {
        await createOrg(w, org);
        return { path: `/v1/orgs/${org}` };
      }
      const doomed = await createOrgWorld(w, org);
      return { path: `/v1/orgs/${org}`, as: sameOrgCaller(doomed, caller) };
    },
    expect: {
      root: 204,
      'hub admin': 204,
      'org admin (same org)': 403,
      'org admin (other org)': 403,
      'user (same org)': 403,
      'user (other org)': 403,
      'node (same org)': 403,
      'node (other org)': 403,
      'agbot (same org)': 403,
      'agbot (other org)': 403,
    },
  },
  {
    operation: 'GET /v1/orgs/{organization}/status',
    prepare: (w) => ({ path: `/v1/orgs/${w.same.org}/status` }),
    expect: sameOrgAccess(200, 200),
  },
  {
    operation: 'GET /v1/orgs/{organization}/status',
    variant: 'missing org',
    prepare: () => ({ path: `/v1/orgs/${freshId('missing')}/status` }),
    expect: { root: 404, 'hub admin': 404, 'org admin (other org)': 403, 'user (other org)': 403 },
  },
];
