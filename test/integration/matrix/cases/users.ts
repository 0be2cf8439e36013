import type { CallerKey, EndpointCases, World } from '#test/support/matrix';
import { createUser, freshId } from '#test/support/world';

/** Users (docs/exchange.md#users). The target is a plain user of `same` unless a case says otherwise. */
const userPath = (org: string, username: string) => `/v1/orgs/${org}/users/${username}`;
const usernameOf = (user: string) => user.split('/')[1] ?? '';

/** Plain identities of either org, nodes and agbots: never authorized on another user. */
const outsiders: Partial<Record<CallerKey, number>> = {
  'org admin (other org)': 403,
  'user (same org)': 403,
  'user (other org)': 403,
  'node (same org)': 403,
  'node (other org)': 403,
  'agbot (same org)': 403,
  'agbot (other org)': 403,
};

/** A new plain user of `same`; when the case's caller is that user itself, it calls as them. */
async function throwawayUser(w: World, caller: CallerKey) {
  const user = await createUser(w, w.same.org, freshId('user'));
  return {
    path: userPath(w.same.org, usernameOf(user.user)),
    as: caller === 'user (self)' ? user : undefined,
  };
}

export const userCases: EndpointCases[] = [
  {
    operation: 'GET /v1/orgs/{organization}/users',
    prepare: (w) => ({ path: `/v1/orgs/${w.same.org}/users` }),
    // The hub admin sees only admins; `same` has one.
    expect: { root: 200, 'hub admin': 200, 'org admin (same org)': 200, ...outsiders },
  },
  {
    operation: 'GET /v1/orgs/{organization}/users/{username}',
    prepare: (w) => ({ path: userPath(w.same.org, usernameOf(w.targetUser.user)) }),
    // Hub admins pass authorization but see only admin users: the route answers 404.
    expect: { root: 200, 'hub admin': 404, 'org admin (same org)': 200, 'user (self)': 200, ...outsiders },
  },
  {
    operation: 'GET /v1/orgs/{organization}/users/{username}',
    variant: 'missing user',
    prepare: (w) => ({ path: userPath(w.same.org, freshId('ghost')) }),
    expect: {
      root: 404,
      'hub admin': 404,
      'org admin (same org)': 404,
      'user (same org)': 403,
      'node (same org)': 403,
      'agbot (same org)': 403,
      'org admin (other org)': 404,
      'user (other org)': 404,
      'node (other org)': 404,
      'agbot (other org)': 404,
    },
  },
  {
    operation: 'POST /v1/orgs/{organization}/users/{username}',
    prepare: (w) => ({
      path: userPath(w.same.org, freshId('new')),
      body: { password: 'new-user-pw', admin: true, email: 'new@example.com' },
    }),
    expect: { root: 201, 'hub admin': 201, 'org admin (same org)': 201, ...outsiders },
  },
  {
    // The target is an org admin so that a hub admin may write it; a user writing itself stays plain.
    operation: 'PUT /v1/orgs/{organization}/users/{username}',
    prepare: async (w, caller) => {
      const admin = caller !== 'user (self)';
      const user = await createUser(w, w.same.org, freshId('put'), { admin });
      return {
        path: userPath(w.same.org, usernameOf(user.user)),
        body: { password: 'changed-pw', admin, email: 'changed@example.com' },
        as: admin ? undefined : user,
      };
    },
    expect: { root: 201, 'hub admin': 201, 'org admin (same org)': 201, 'user (self)': 201, ...outsiders },
  },
  {
    operation: 'PATCH /v1/orgs/{organization}/users/{username}',
    prepare: async (w, caller) => ({
      ...(await throwawayUser(w, caller)),
      body: { email: 'patched@example.com' },
    }),
    expect: { root: 201, 'hub admin': 404, 'org admin (same org)': 201, 'user (self)': 201, ...outsiders },
  },
  {
    operation: 'DELETE /v1/orgs/{organization}/users/{username}',
    prepare: (w, caller) => throwawayUser(w, caller),
    expect: { root: 204, 'hub admin': 404, 'org admin (same org)': 204, 'user (self)': 204, ...outsiders },
  },
  {
    operation: 'POST /v1/orgs/{organization}/users/{username}/confirm',
    prepare: (w) => ({ path: `${userPath(w.same.org, usernameOf(w.targetUser.user))}/confirm` }),
    // Confirm is authorization only (READ on the user), so the hub admin passes.
    expect: { root: 201, 'hub admin': 201, 'org admin (same org)': 201, 'user (self)': 201, ...outsiders },
  },
];
