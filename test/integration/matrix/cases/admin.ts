import type { CallerKey, EndpointCases } from '#test/support/matrix';

/**
 * Administration (docs/exchange.md#administration, docs/compatibility.md#administration) and agent file versions (docs/exchange.md#agent-file-versions). dropdb is
 * not here: a wrong answer would wipe this file's data, so its table lives in admin-dropdb.test.ts.
 */
const rootOnly = (ok: number): Partial<Record<CallerKey, number>> => ({
  root: ok,
  'hub admin': 403,
  'org admin': 403,
  user: 403,
  node: 403,
  agbot: 403,
});

/**
 * Agent file versions are kept per org (docs/compatibility.md; upstream: IBM only). Each caller
 * targets org `same` (so "(other org)" callers reach across orgs), and a second table targets IBM,
 * whose lists every identity still reads as upstream's only lists. Both are seeded before the run.
 */
const afvPath = (org: string) => `/v1/orgs/${org}/AgentFileVersion`;
const afvRead: Partial<Record<CallerKey, number>> = {
  root: 200,
  'hub admin': 200,
  'org admin (same org)': 200,
  'org admin (other org)': 403,
  'user (same org)': 200,
  'user (other org)': 403,
  'node (same org)': 200,
  'node (other org)': 403,
  'agbot (same org)': 200,
  'agbot (other org)': 403,
};
const afvWrite = (ok: number): Partial<Record<CallerKey, number>> => ({
  root: ok,
  'hub admin': ok,
  'org admin (same org)': ok,
  'org admin (other org)': 403,
  'user (same org)': 403,
  'user (other org)': 403,
  'node (same org)': 403,
  'node (other org)': 403,
  'agbot (same org)': ok,
  'agbot (other org)': 403,
});
/** On IBM's lists, callers of `same`/`other` are all of another org than IBM (none is multi-tenant). */
const afvWriteIbm = (ok: number): Partial<Record<CallerKey, number>> => ({
  root: ok,
  'hub admin': ok,
  'org admin (other org)': 403,
  'user (other org)': 403,
  'node (other org)': 403,
  // Upstream lets an agbot of any org write IBM's lists; here only IBM's own (multi-tenant) agbots.
  'agbot (other org)': 403,
});
const versions = {
  agentSoftwareVersions: ['2.31.0'],
  agentConfigVersions: ['0.0.4'],
  agentCertVersions: ['0.0.15'],
};

export const adminCases: EndpointCases[] = [
  {
    operation: 'GET /v1/admin/version',
    prepare: () => ({ path: '/v1/admin/version' }),
    expect: {
      anonymous: 200,
      'wrong password': 200,
      root: 200,
      'hub admin': 200,
      'org admin': 200,
      user: 200,
      node: 200,
      agbot: 200,
    },
  },
  {
    operation: 'GET /v1/admin/status',
    prepare: () => ({ path: '/v1/admin/status' }),
    expect: { root: 200, 'hub admin': 200, 'org admin': 200, user: 200, node: 403, agbot: 403 },
  },
  {
    operation: 'GET /v1/admin/orgstatus',
    prepare: () => ({ path: '/v1/admin/orgstatus' }),
    expect: { root: 200, 'hub admin': 200, 'org admin': 200, user: 403, node: 403, agbot: 403 },
  },
  {
    operation: 'POST /v1/admin/reload',
    prepare: () => ({ path: '/v1/admin/reload' }),
    expect: rootOnly(201),
  },
  {
    operation: 'POST /v1/admin/initdb',
    prepare: () => ({ path: '/v1/admin/initdb' }),
    expect: rootOnly(201),
  },
  {
    operation: 'GET /v1/admin/dropdb/token',
    prepare: () => ({ path: '/v1/admin/dropdb/token' }),
    expect: rootOnly(200),
  },
  {
    // Seeded by a PUT before the matrix runs, so GET finds a record (a DELETE keeps it, emptied).
    operation: 'GET /v1/orgs/{organization}/AgentFileVersion',
    prepare: (w) => ({ path: afvPath(w.same.org) }),
    expect: afvRead,
  },
  {
    operation: 'GET /v1/orgs/{organization}/AgentFileVersion',
    variant: 'IBM',
    prepare: () => ({ path: afvPath('IBM') }),
    expect: {
      root: 200,
      'hub admin': 200,
      'org admin (other org)': 200,
      'user (other org)': 200,
      'node (other org)': 200,
      'agbot (other org)': 200,
    },
  },
  {
    operation: 'PUT /v1/orgs/{organization}/AgentFileVersion',
    prepare: (w) => ({ path: afvPath(w.same.org), body: versions }),
    expect: afvWrite(201),
  },
  {
    operation: 'PUT /v1/orgs/{organization}/AgentFileVersion',
    variant: 'IBM',
    prepare: () => ({ path: afvPath('IBM'), body: versions }),
    expect: afvWriteIbm(201),
  },
  {
    operation: 'DELETE /v1/orgs/{organization}/AgentFileVersion',
    prepare: (w) => ({ path: afvPath(w.same.org) }),
    expect: afvWrite(204),
  },
  {
    operation: 'DELETE /v1/orgs/{organization}/AgentFileVersion',
    variant: 'IBM',
    prepare: () => ({ path: afvPath('IBM') }),
    expect: afvWriteIbm(204),
  },
];

export const agentFileVersions = versions;
