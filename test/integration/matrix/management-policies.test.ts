import { randomBytes } from 'node:crypto';
import { describe } from 'vitest';
import { createAgbot } from '#test/support/identities';
import { useInProcessExchange } from '#test/support/in-process-exchange';
import { type CallerKey, defineMatrix, type EndpointCases, type World } from '#test/support/matrix';
import { useMatrixWorld } from '#test/support/matrix-world';
import { expectStatus, freshId } from '#test/support/world';

/**
 * Node management policies and the per-node management statuses (docs/nmp.md#who-may-do-what) ×
 * every kind of caller, same org and other org, over HTTP to the handlers in this process. Every
 * 2xx body is checked against our OpenAPI document and upstream's.
 */
const MT: CallerKey = 'agbot (multi-tenant)';
const server = useInProcessExchange();
const getWorld = useMatrixWorld(server, 'mp', async (world) => {
  world.multiTenantAgbot = await createAgbot('IBM', `mt-${randomBytes(3).toString('hex')}`, 'root/root', {
    token: `mt-token-${randomBytes(4).toString('hex')}`,
  });
});

const policyBody = {
  label: 'upgrade',
  patterns: ['web'],
  enabled: true,
  agentUpgradePolicy: { manifest: 'm1' },
};

/** A fresh policy path of `same` (not created). */
const freshPolicy = (w: World) => ({
  path: `/v1/orgs/${w.same.org}/managementpolicies/${freshId('nmp')}`,
  body: policyBody,
});

/** A fresh policy of `same`, created by its org admin. */
async function existingPolicy(w: World) {
  const policy = freshPolicy(w);
  expectStatus(
    await w.http('POST', policy.path, { auth: w.same.admin, body: policy.body }),
    201,
    policy.path,
  );
  return policy;
}

/** READ: users, nodes and agbots of the org, multi-tenant agbots, root. */
const read = (ok: number): Partial<Record<CallerKey, number>> => ({
  root: ok,
  'hub admin': 403,
  'org admin (same org)': ok,
  'org admin (other org)': 403,
  'user (same org)': ok,
  'user (other org)': 403,
  'node (same org)': ok,
  'node (other org)': 403,
  'agbot (same org)': ok,
  'agbot (other org)': 403,
  [MT]: ok,
});

/** CREATE, WRITE: org admins and root only. */
const write = (ok: number): Partial<Record<CallerKey, number>> => ({
  root: ok,
  'hub admin': 403,
  'org admin (same org)': ok,
  'org admin (other org)': 403,
  'user (same org)': 403,
  'user (other org)': 403,
  'node (same org)': 403,
  'node (other org)': 403,
  'agbot (same org)': 403,
  'agbot (other org)': 403,
  [MT]: 403,
});

const policyCases: EndpointCases[] = [
  {
    operation: 'POST /v1/orgs/{organization}/managementpolicies/{mgmtpolicy}',
    prepare: (w) => freshPolicy(w),
    expect: write(201),
  },
  {
    operation: 'GET /v1/orgs/{organization}/managementpolicies',
    prepare: async (w) => {
      await existingPolicy(w);
      return { path: `/v1/orgs/${w.same.org}/managementpolicies` };
    },
    expect: read(200),
  },
  {
    operation: 'GET /v1/orgs/{organization}/managementpolicies/{mgmtpolicy}',
    prepare: async (w) => ({ path: (await existingPolicy(w)).path }),
    expect: read(200),
  },
  {
    operation: 'GET /v1/orgs/{organization}/managementpolicies/{mgmtpolicy}',
    variant: 'missing',
    prepare: (w) => ({ path: freshPolicy(w).path }),
    expect: {
      ...read(404),
      'org admin (other org)': 404,
      'user (other org)': 404,
      'node (other org)': 404,
      'agbot (other org)': 404,
      'hub admin': 403,
    },
  },
  {
    operation: 'PUT /v1/orgs/{organization}/managementpolicies/{mgmtpolicy}',
    prepare: (w) => existingPolicy(w),
    expect: write(201),
  },
  {
    operation: 'PUT /v1/orgs/{organization}/managementpolicies/{mgmtpolicy}',
    variant: 'missing',
    prepare: (w) => freshPolicy(w),
    expect: write(404),
  },
  {
    operation: 'DELETE /v1/orgs/{organization}/managementpolicies/{mgmtpolicy}',
    prepare: async (w) => ({ path: (await existingPolicy(w)).path }),
    expect: write(204),
  },
];

/** A policy of `same` with a status of `same`'s node1 (owned by `same`'s user) for it. */
async function nodeStatus(w: World) {
  const policy = await existingPolicy(w);
  const name = policy.path.split('/').pop() as string;
  const path = `/v1/orgs/${w.same.org}/nodes/node1/managementStatus/${name}`;
  const body = { agentUpgradePolicyStatus: { scheduledTime: '2031-01-01T00:00:00Z', status: 'waiting' } };
  expectStatus(await w.http('PUT', path, { auth: w.same.node, body }), 201, path);
  return { path, body };
}

/** The node's readers: itself, its owner, org admins, agbots of the org, root. */
const statusRead = (ok: number): Partial<Record<CallerKey, number>> => ({
  root: ok,
  'org admin (same org)': ok,
  'org admin (other org)': 403,
  'user (same org, owner)': ok,
  'user (same org, not owner)': 403,
  'user (other org)': 403,
  'node (itself)': ok,
  'node (same org, another)': 403,
  'node (other org)': 403,
  'agbot (same org)': ok,
  'agbot (other org)': 403,
});

/** The node's writers: itself, its owner, org admins, root. */
const statusWrite = (ok: number): Partial<Record<CallerKey, number>> => ({
  ...statusRead(ok),
  'agbot (same org)': 403,
});

const statusCases: EndpointCases[] = [
  {
    operation: 'GET /v1/orgs/{organization}/nodes/{node}/managementStatus',
    prepare: async (w) => ({ path: (await nodeStatus(w)).path.replace(/\/[^/]+$/, '') }),
    expect: statusRead(200),
  },
  {
    operation: 'GET /v1/orgs/{organization}/nodes/{node}/managementStatus/{mgmtpolicy}',
    prepare: async (w) => ({ path: (await nodeStatus(w)).path }),
    expect: statusRead(200),
  },
  {
    operation: 'PUT /v1/orgs/{organization}/nodes/{node}/managementStatus/{mgmtpolicy}',
    prepare: (w) => nodeStatus(w),
    expect: statusWrite(201),
  },
  {
    operation: 'PUT /v1/orgs/{organization}/nodes/{node}/managementStatus/{mgmtpolicy}',
    variant: 'missing policy',
    prepare: (w) => ({
      path: `/v1/orgs/${w.same.org}/nodes/node1/managementStatus/${freshId('nmp')}`,
      body: { agentUpgradePolicyStatus: { scheduledTime: 'now' } },
    }),
    expect: statusWrite(404),
  },
  {
    operation: 'DELETE /v1/orgs/{organization}/nodes/{node}/managementStatus/{mgmtpolicy}',
    prepare: async (w) => ({ path: (await nodeStatus(w)).path }),
    expect: statusWrite(204),
  },
];

describe.concurrent('node management policies', () => defineMatrix(policyCases, getWorld, server.http));
describe.concurrent('node management statuses', () => defineMatrix(statusCases, getWorld, server.http));
