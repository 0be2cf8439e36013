/**
 * The rollout sub-resource (docs/rollouts.md#operators) over HTTP in-process: every route by every
 * kind of caller, bad inputs naming their field, what a rejected request leaves (nothing), the
 * change rows, and that a PUT of the policy (as upstream's `hzn` sends it) keeps the plan.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { insertAgbotPolicy } from '#tables/agbot/policy-records';
import { seedDeploymentPolicy } from '#test/support/catalog';
import { createAgbot, createNode, createOrg, createUser, ROOT } from '#test/support/identities';
import { useInProcessExchange } from '#test/support/in-process-exchange';

const exchange = useInProcessExchange();
type Auth = { user: string; secret: string };
const P = '/v1/orgs/acme/business/policies/web/rollout';
const plan = { waves: [{ name: 'canary', nodes: 1, maxFailures: 0 }, {}], onAbort: 'rollback' };
const status = {
  state: 'running',
  target: '2.0.0',
  baseline: ['1.0.0'],
  wave: { index: 0, name: 'canary', of: 2 },
  counts: {
    targeted: 4,
    waiting: 3,
    deploying: 1,
    verifying: 0,
    succeeded: 0,
    failed: 0,
    offline: 0,
    left: 0,
    reverting: 0,
    rolledBack: 0,
  },
  failures: {},
  failureRate: { measured: 0, threshold: 0, verdicts: 0, failures: 0, minVerdicts: 1 },
  lastDecision: { at: '2031-01-01T00:00:00.000Z', action: 'admit', why: 'wave canary: admit 1 of 1 waiting' },
  plan: { lastUpdated: 'x', waves: [{ index: 0, name: 'canary', count: 1, nodes: ['acme/n1'] }] },
};

const who: Record<string, Auth> = {};
const call = (method: string, path: string, auth: Auth | undefined, body?: unknown) =>
  exchange.http(method, path, { ...(auth ? { auth } : {}), ...(body === undefined ? {} : { body }) });

beforeAll(async () => {
  await createOrg('acme');
  await createOrg('beta');
  who.owner = await createUser('acme', 'admin', { admin: true });
  who.admin = await createUser('acme', 'other-admin', { admin: true });
  who.user = await createUser('acme', 'plain');
  who.node = await createNode('acme', 'n1', 'acme/plain');
  who.serving = await createAgbot('acme', 'serving', 'acme/admin');
  who.idle = await createAgbot('acme', 'idle', 'acme/admin');
  who.stranger = await createUser('beta', 'boss', { admin: true });
  who.root = ROOT;
  await insertAgbotPolicy({
    org: 'acme',
    id: 'serving',
    policyId: 'acme_*_acme',
    businessPolOrgid: 'acme',
    businessPol: '*',
    nodeOrgid: 'acme',
    lastUpdated: new Date().toISOString(),
  });
  await seedDeploymentPolicy('acme', 'web');
});

describe('the rollout routes, by caller', () => {
  const roles = ['owner', 'admin', 'user', 'node', 'serving', 'idle', 'stranger', 'root'] as const;
  // Expected status per role, in the order above.
  const cases: [string, string, unknown, number[]][] = [
    ['PUT', P, plan, [201, 201, 403, 403, 403, 403, 403, 201]],
    ['GET', P, undefined, [200, 200, 200, 200, 200, 200, 403, 200]],
    ['PUT', `${P}/status`, status, [403, 403, 403, 403, 201, 403, 403, 403]],
    ['GET', `${P}/status`, undefined, [200, 200, 200, 200, 200, 200, 403, 200]],
    ['GET', `${P}/plan`, undefined, [200, 200, 200, 200, 200, 200, 403, 200]],
    ['POST', `${P}/pause`, { reason: 'look' }, [201, 201, 403, 403, 403, 403, 403, 201]],
    ['POST', `${P}/resume`, {}, [201, 201, 403, 403, 403, 403, 403, 201]],
    ['POST', `${P}/promote`, { wave: 1 }, [201, 201, 403, 403, 403, 403, 403, 201]],
    ['POST', `${P}/abort`, { action: 'pause' }, [201, 201, 403, 403, 403, 403, 403, 201]],
    ['POST', `${P}/retry`, { failed: true }, [201, 201, 403, 403, 403, 403, 403, 201]],
  ];
  for (const [method, path, body, expected] of cases)
    it(`${method} ${path.replace(P, '…/rollout')}`, async () => {
      const got: number[] = [];
      for (const role of roles) got.push((await call(method, path, who[role], body)).status);
      expect(Object.fromEntries(roles.map((r, i) => [r, got[i]]))).toEqual(
        Object.fromEntries(roles.map((r, i) => [r, expected[i]])),
      );
    });

  it('answers 401 without credentials', async () => {
    expect((await call('GET', P, undefined)).status).toBe(401);
  });
});

describe('what the routes keep', () => {
  it('numbers each action and keeps the plan through a PUT of the policy', async () => {
    const before = (await call('GET', P, who.owner)).body;
    await call('POST', `${P}/promote`, who.owner, {});
    const after = (await call('GET', P, who.owner)).body;
    expect(after.control.seq).toBe(before.control.seq + 1);
    expect(after.control.promote).toEqual({ seq: after.control.seq });
    // What upstream's `hzn exchange deployment addpolicy` sends: the policy without our field.
    const put = await call('PUT', '/v1/orgs/acme/business/policies/web', who.owner, {
      label: 'web',
      service: { name: 'web', org: 'acme', arch: '', serviceVersions: [] },
    });
    expect([201, 400]).toContain(put.status);
    expect((await call('GET', P, who.owner)).body.plan).toEqual(plan);
  });

  it('shows the agbot status and its dry run, current until the plan changes', async () => {
    const statuses = (await call('GET', `${P}/status`, who.user)).body;
    expect(statuses.statuses).toEqual([expect.objectContaining({ agbot: 'acme/serving', state: 'running' })]);
    const dry = (await call('GET', `${P}/plan`, who.user)).body;
    expect(dry.plans[0]).toMatchObject({
      agbot: 'acme/serving',
      current: false,
      waves: [{ nodes: ['acme/n1'] }],
    });
  });

  it('writes a change row for the plan and for every action, and a rolloutstatus row for a report', async () => {
    const rows = async (from: number) =>
      (await call('POST', '/v1/orgs/acme/changes', who.owner, { changeId: from, maxRecords: 1000 })).body;
    const all = await rows(0);
    const kinds = all.changes.map((c: { resource: string; id: string }) => `${c.resource} ${c.id}`);
    expect(kinds).toEqual(expect.arrayContaining(['rollout web', 'rolloutstatus web']));
    // The feed keeps the latest row per resource; each action writes one more.
    for (const action of ['pause', 'resume', 'abort']) {
      const since = (await rows(0)).mostRecentChangeId + 1;
      expect((await call('POST', `${P}/${action}`, who.owner, {})).status).toBe(201);
      expect((await rows(since)).changes).toEqual([
        expect.objectContaining({ resource: 'rollout', id: 'web', operation: 'modified' }),
      ]);
    }
  });

  it('refuses bad bodies naming the field, and writes nothing', async () => {
    const before = (await call('GET', P, who.owner)).body;
    const bad: [string, unknown, string][] = [
      ['', { waves: [{ nodes: 1, percent: 5 }] }, 'waves.0'],
      ['', { waves: [], x: 1 }, 'waves'],
      ['/promote', { wave: -1 }, 'wave'],
      ['/abort', { action: 'explode' }, 'action'],
      ['/retry', { nodes: ['nope'] }, 'nodes'],
      ['/retry', {}, 'failed'],
      ['/pause', { reason: 5 }, 'reason'],
    ];
    for (const [suffix, body, field] of bad) {
      const answer = await call(suffix === '' ? 'PUT' : 'POST', `${P}${suffix}`, who.owner, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.msg, JSON.stringify(body)).toContain(field);
    }
    const badStatus = await call('PUT', `${P}/status`, who.serving, { ...status, state: 'dancing' });
    expect(badStatus.status).toBe(400);
    expect(badStatus.body.msg).toContain('state');
    expect((await call('GET', P, who.owner)).body).toEqual(before);
  });

  it('answers 404 for a missing policy or plan, and deletes the plan and its statuses', async () => {
    expect((await call('GET', '/v1/orgs/acme/business/policies/none/rollout', who.owner)).status).toBe(404);
    expect((await call('PUT', '/v1/orgs/acme/business/policies/none/rollout', who.owner, plan)).status).toBe(
      404,
    );
    expect((await call('DELETE', P, who.user)).status).toBe(403);
    expect((await call('DELETE', P, who.owner)).status).toBe(204);
    expect((await call('GET', P, who.owner)).status).toBe(404);
    expect((await call('GET', `${P}/status`, who.owner)).status).toBe(404);
    expect((await call('POST', `${P}/pause`, who.owner, {})).status).toBe(404);
    expect((await call('PUT', `${P}/status`, who.serving, status)).status).toBe(404);
    expect((await call('DELETE', P, who.owner)).status).toBe(404);
  });

  it('goes with its policy', async () => {
    await seedDeploymentPolicy('acme', 'short-lived');
    const Q = '/v1/orgs/acme/business/policies/short-lived/rollout';
    expect((await call('PUT', Q, who.owner, plan)).status).toBe(201);
    expect((await call('PUT', `${Q}/status`, who.serving, status)).status).toBe(201);
    expect((await call('DELETE', '/v1/orgs/acme/business/policies/short-lived', who.owner)).status).toBe(204);
    await seedDeploymentPolicy('acme', 'short-lived');
    expect((await call('GET', Q, who.owner)).status).toBe(404);
    expect((await call('PUT', Q, who.owner, plan)).status).toBe(201);
    expect((await call('GET', `${Q}/status`, who.owner)).body.statuses).toEqual([]);
  });
});
