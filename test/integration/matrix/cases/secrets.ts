import type { CallerKey, EndpointCases, World } from '#test/support/matrix';
import { expectStatus, freshId } from '#test/support/world';

/**
 * The secrets manager (issue 12): each row of docs/exchange-catalog.md#secret-permissions × every caller, same org and
 * other org, plus agbots (the README's secrets rule: no agbot lists; an agbot that may deliver,
 * here the multi-tenant one root made, reads only with `?policy=` or `?pattern=`, so a bare read is
 * 400; test/integration/secrets/agbots.test.ts holds the delivery matrix). A secret's `/` is sent as `%2F` so the path has the documented shape.
 * Each case writes a fresh secret of its own.
 */
type Kind = 'org' | 'org node' | 'user' | 'user node';
const KINDS: Kind[] = ['org', 'org node', 'user', 'user node'];
const SECRET = '/v1/orgs/{organization}/secrets/{secret}';

const userId = (w: World) => w.same.user.user.split('/')[1] ?? '';
const nodeId = (w: World) => w.same.node.user.split('/')[1] ?? '';

function freshName(w: World, kind: Kind): string {
  const leaf = freshId('s');
  if (kind === 'org') return `app/${leaf}`;
  if (kind === 'org node') return `node/${nodeId(w)}/${leaf}`;
  if (kind === 'user') return `user/${userId(w)}/${leaf}`;
  return `user/${userId(w)}/node/${nodeId(w)}/${leaf}`;
}

/** Writes a fresh secret of `kind` in `same` (as the org admin, or the owning user) and returns its path. */
async function freshSecret(w: World, kind: Kind): Promise<string> {
  const path = `/v1/orgs/${w.same.org}/secrets/${encodeURIComponent(freshName(w, kind))}`;
  const owner = kind.startsWith('user') ? w.same.user : w.same.admin;
  expectStatus(
    await w.http('PUT', path, { auth: owner, body: { key: 'k', value: 'v' } }),
    201,
    `PUT ${path}`,
  );
  return path;
}

const NOBODY: Partial<Record<CallerKey, number>> = {
  root: 403,
  'hub admin': 403,
  'org admin (other org)': 403,
  'user (other org)': 403,
  'node (same org)': 403,
  'node (other org)': 403,
  'agbot (same org)': 403,
  'agbot (other org)': 403,
};

type Row = Partial<Record<CallerKey, number>>;
/** docs/exchange-catalog.md#secret-permissions: [admin, owner (user), another plain user, multi-tenant agbot] per kind and action. */
const matrix: Record<Kind, Record<'list' | 'read' | 'write' | 'delete', [number, number, number, number]>> = {
  org: {
    list: [200, 200, 200, 403],
    read: [200, 403, 403, 400],
    write: [201, 403, 403, 403],
    delete: [204, 403, 403, 403],
  },
  'org node': {
    list: [200, 200, 200, 403],
    read: [200, 403, 403, 400],
    write: [201, 403, 403, 403],
    delete: [204, 403, 403, 403],
  },
  user: {
    list: [200, 200, 403, 403],
    read: [403, 200, 403, 400],
    write: [403, 201, 403, 403],
    delete: [204, 204, 403, 403],
  },
  'user node': {
    list: [200, 200, 403, 403],
    read: [403, 200, 403, 400],
    write: [403, 201, 403, 403],
    delete: [204, 204, 403, 403],
  },
};

const row = ([admin, owner, other, agbot]: [number, number, number, number]): Row => ({
  ...NOBODY,
  'org admin (same org)': admin,
  'user (same org, owner)': owner,
  'user (same org, not owner)': other,
  'agbot (multi-tenant)': agbot,
});

const LIST_PATHS: Record<Kind, { operation: string; path: (w: World) => string }> = {
  org: { operation: 'GET /v1/orgs/{organization}/secrets', path: (w) => `/v1/orgs/${w.same.org}/secrets` },
  'org node': {
    operation: 'GET /v1/orgs/{organization}/secrets/node/{node}',
    path: (w) => `/v1/orgs/${w.same.org}/secrets/node/${nodeId(w)}`,
  },
  user: {
    operation: 'GET /v1/orgs/{organization}/secrets/user/{user}',
    path: (w) => `/v1/orgs/${w.same.org}/secrets/user/${userId(w)}`,
  },
  'user node': {
    operation: 'GET /v1/orgs/{organization}/secrets/user/{user}/node/{node}',
    path: (w) => `/v1/orgs/${w.same.org}/secrets/user/${userId(w)}/node/${nodeId(w)}`,
  },
};

export const secretCases: EndpointCases[] = KINDS.flatMap((kind): EndpointCases[] => [
  {
    operation: LIST_PATHS[kind].operation,
    variant: `${kind} secrets`,
    prepare: async (w) => {
      await freshSecret(w, kind);
      return { path: LIST_PATHS[kind].path(w) };
    },
    expect: row(matrix[kind].list),
  },
  {
    operation: `GET ${SECRET}`,
    variant: `${kind} secret`,
    prepare: async (w) => ({ path: await freshSecret(w, kind) }),
    expect: row(matrix[kind].read),
  },
  {
    operation: `PUT ${SECRET}`,
    variant: `${kind} secret`,
    prepare: async (w) => ({ path: await freshSecret(w, kind), body: { key: 'k2', value: 'v2' } }),
    expect: row(matrix[kind].write),
  },
  {
    operation: `POST ${SECRET}`,
    variant: `${kind} secret`,
    prepare: async (w) => ({
      path: `/v1/orgs/${w.same.org}/secrets/${encodeURIComponent(freshName(w, kind))}`,
      body: { key: 'k', value: 'v' },
    }),
    expect: row(matrix[kind].write),
  },
  {
    operation: `DELETE ${SECRET}`,
    variant: `${kind} secret`,
    prepare: async (w) => ({ path: await freshSecret(w, kind) }),
    expect: row(matrix[kind].delete),
  },
]);

/** allsecrets: every user of the org lists (trees it may not see are skipped); no agbot. */
secretCases.push({
  operation: 'GET /v1/orgs/{organization}/allsecrets',
  prepare: (w) => ({ path: `/v1/orgs/${w.same.org}/allsecrets` }),
  expect: row([200, 200, 200, 403]),
});
