import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getPolicy } from '#functions/agbot-status/get-policy';
import { handler as deployments } from '#functions/console/list-deployments';
import { BUILT_IN_AGBOT } from '#lib/agbot/built-in';
import type { AgbotAgreement } from '#lib/agbot-store/contract';
import { localKeyProvider } from '#lib/secrets/local-key-provider';
import { agbotStateKeys } from '#tables/agbot-state/keys';
import { dynamoAgbotStore } from '#tables/agbot-state/store';
import { documentClient, tableName } from '#tables/client';
import { seedDeploymentPolicy, seedPattern, seedService } from '#test/support/catalog';
import { dynamoUsageOf } from '#test/support/dynamo-usage';
import { createAgbot, createNode, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';

useTestTable();

type Auth = { user: string; secret: string };
const now = Date.parse('2031-05-06T07:08:09.010Z');
const list = deployments.withDeps({ clock: { now: () => new Date(now) } });
const page = (auth: Auth, query: Record<string, string> = {}, organization = 'acme') =>
  invoke(list, { auth, path: { organization }, query });
const rowNames = (result: { body: { deployments: { kind: string; name: string }[] } }) =>
  result.body.deployments.map((row) => `${row.kind}/${row.name}`);

const agreement = (id: string, policy: string, over: Partial<AgbotAgreement> = {}): AgbotAgreement => ({
  agreementId: id,
  nodeOrg: 'acme',
  nodeId: `node-${id}`,
  policy,
  service: { org: 'acme', url: 'web', version: '1.0.0', arch: 'amd64' },
  state: 'Formed Proposal',
  createdAt: now - 60_000,
  updatedAt: now - 60_000,
  archived: false,
  ...over,
});

let alice: Auth;
let admin: Auth;
let stranger: Auth;
let hub: Auth;

beforeAll(async () => {
  await createOrg('acme');
  await createOrg('beta');
  alice = await createUser('acme', 'alice');
  admin = await createUser('acme', 'admin', { admin: true });
  stranger = await createUser('beta', 'stranger', { admin: true });
  hub = await createUser('root', 'hub', { hubAdmin: true });
  await seedService('acme', { url: 'web', version: '1.0.0', arch: 'amd64' });
  for (const name of ['p-a', 'p-b', 'p-c']) await seedDeploymentPolicy('acme', name);
  for (const name of ['pat-x', 'pat-y']) await seedPattern('acme', name);
  await seedDeploymentPolicy('beta', 'p-a');
  const store = dynamoAgbotStore(BUILT_IN_AGBOT, () => localKeyProvider(Buffer.alloc(32, 1)));
  const finalized = { state: 'Finalized Agreement', details: { protocolTimeoutS: 240, secrets: [] } };
  const running = (at: number) => ({ workload: { state: 'running' as const, at } });
  await store.saveAgreement(agreement('a1', 'acme/p-a'));
  await store.saveAgreement(
    agreement('a2', 'acme/p-a', {
      ...finalized,
      details: { ...finalized.details, repliedAt: now, ...running(now) },
    }),
  );
  await store.savePolicyStatus({
    policy: 'acme/p-a',
    search: { at: now - 1000, full: true, found: 4, matched: 2, skipped: 2 },
    skipped: [
      { node: 'acme/arm', reason: 'service arch amd64 is not arm64', since: now - 1000 },
      { node: 'beta/hidden', reason: 'policy mismatch', since: now - 2000 },
    ],
  });
  // The pattern pat-x's two services, each its own status name.
  for (const service of ['web_amd64', 'db_amd64']) {
    await store.saveAgreement(
      agreement(`x-${service}`, `acme/pat-x_${service}`, { ...finalized, pattern: 'acme/pat-x' }),
    );
    await store.savePolicyStatus({
      policy: `acme/pat-x_${service}`,
      pattern: 'acme/pat-x',
      search: { at: now - 500, full: true, found: 1, matched: 1, skipped: 0 },
      skipped: [],
    });
  }
  const plan = { waves: [{ name: 'canary', nodes: 1, maxFailures: 0 }, {}], onAbort: 'rollback' };
  const { handler: putRollout } = await import('#functions/rollouts/put-rollout');
  expect(
    (await invoke(putRollout, { auth: admin, path: { organization: 'acme', policy: 'p-b' }, body: plan }))
      .status,
  ).toBe(201);
});

describe('GET /v1/console/orgs/{organization}/deployments', () => {
  it('answers every policy, then every pattern, with the counts the agbot status route gives', async () => {
    const result = await page(alice);
    expect(result.status).toBe(200);
    expect(rowNames(result)).toEqual([
      'policy/p-a',
      'policy/p-b',
      'policy/p-c',
      'pattern/pat-x',
      'pattern/pat-y',
    ]);
    expect(result.body.next).toBeUndefined();
    const [pa, pb, pc, px, py] = result.body.deployments;
    const status = await invoke(getPolicy, { auth: alice, path: { organization: 'acme', policy: 'p-a' } });
    const { org, name, ...counts } = status.body;
    expect(pa).toMatchObject({ ...counts, served: ['acme/p-a'] });
    expect(pa).toMatchObject({ matched: 2, proposed: 1, agreed: 1, running: 1, failing: 0 });
    // A user sees only their own org's skipped node names, as the status route shows them.
    expect(pa.skipped.map((s: { node: string }) => s.node)).toEqual(['acme/arm']);
    expect(pb.rollout.statuses).toEqual([]);
    expect(pb.rollout.control).toBeDefined();
    expect(pc).toMatchObject({ matched: 0, served: [], skipped: [] });
    expect(pc.rollout).toBeUndefined();
    expect(px).toMatchObject({
      matched: 2,
      agreed: 2,
      served: ['acme/pat-x_db_amd64', 'acme/pat-x_web_amd64'],
    });
    expect(py).toMatchObject({ matched: 0, served: [] });
    const rootView = await page(ROOT);
    expect(rootView.body.deployments[0].skipped).toHaveLength(2);
  });

  it('pages: policies then patterns, each page from the cursor', async () => {
    const seen: string[] = [];
    let after: string | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const result = await page(admin, { limit: '2', ...(after ? { after } : {}) });
      expect(result.status).toBe(200);
      seen.push(...rowNames(result));
      after = result.body.next;
      if (!after) break;
    }
    expect(seen).toEqual(['policy/p-a', 'policy/p-b', 'policy/p-c', 'pattern/pat-x', 'pattern/pat-y']);
    expect(rowNames(await page(admin, { after: 'pattern/pat-x' }))).toEqual(['pattern/pat-y']);
  });

  it('costs bounded calls: two name Queries, the agbot state of the org, one Query per listed policy', async () => {
    const calls = await dynamoUsageOf(() => page(admin, { limit: '2' }));
    // p-a, p-b fill the page: the patterns are not read; 2 agbot-state Queries, 2 rollout Queries.
    expect(calls.map((call) => call.command)).toEqual(['Query', 'Query', 'Query', 'Query', 'Query']);
    expect(calls.every((call) => call.writeUnits === 0)).toBe(true);
  });

  it("reads the agbot's state of its org only: another org's agreements and statuses cost it nothing", async () => {
    const units = async () =>
      (await dynamoUsageOf(() => page(admin, { limit: '2' }))).reduce((sum, call) => sum + call.readUnits, 0);
    const before = await units();
    const store = dynamoAgbotStore(BUILT_IN_AGBOT, () => localKeyProvider(Buffer.alloc(32, 1)));
    // Some 40 KB of another org's live agreements and statuses in the same agbot partition.
    for (let i = 0; i < 60; i++) {
      const note = 'x'.repeat(500);
      await store.saveAgreement(
        agreement(`beta-${i}`, `beta/p-${i}`, {
          nodeOrg: 'beta',
          nodeId: `n${i}`,
          terminatedDescription: note,
        }),
      );
      await store.savePolicyStatus({
        policy: `beta/p-${i}`,
        search: { at: now, full: true, found: 1, matched: 0, skipped: 1 },
        skipped: [{ node: `beta/n${i}`, reason: note.slice(0, 190), since: now }],
      });
    }
    expect(await units()).toBe(before);
  });

  it('counts an agreement saved before the index once the round has listed the live ones', async () => {
    const item = { ...agbotStateKeys.liveAgreement(BUILT_IN_AGBOT.org, BUILT_IN_AGBOT.id, 'old-1') };
    await documentClient.send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...item, agreement: agreement('old-1', 'acme/p-c') },
      }),
    );
    const matched = async () => (await page(admin)).body.deployments[2].matched;
    expect(await matched()).toBe(0);
    const store = dynamoAgbotStore(BUILT_IN_AGBOT, () => localKeyProvider(Buffer.alloc(32, 1)));
    expect((await store.listAgreements(false)).map((a) => a.agreementId)).toContain('old-1');
    expect(await matched()).toBe(1);
  });

  it('authorizes as the agbot status: users of the org, hub admins, root', async () => {
    const agbot = await createAgbot('acme', 'bot', 'acme/admin');
    const node = await createNode('acme', 'n1', 'acme/alice');
    for (const [auth, status] of [
      [alice, 200],
      [admin, 200],
      [hub, 200],
      [ROOT, 200],
      [stranger, 403],
      [agbot, 403],
      [node, 403],
    ] as const)
      expect((await page(auth)).status, auth.user).toBe(status);
    expect((await page({ user: 'acme/alice', secret: 'wrong' })).status).toBe(401);
  });

  it('refuses a bad query parameter with 400 naming it, writing nothing', async () => {
    for (const [query, field] of [
      [{ limit: '0' }, 'limit'],
      [{ limit: '101' }, 'limit'],
      [{ after: 'p-a' }, 'after'],
      [{ after: 'service/x' }, 'after'],
      [{ kind: 'policy' }, 'kind'],
    ] as const) {
      let result = { status: 0, body: { msg: '' } };
      const calls = await dynamoUsageOf(async () => {
        result = await page(admin, query);
      });
      expect(result.status, JSON.stringify(query)).toBe(400);
      expect(result.body.msg).toContain(`'${field}'`);
      expect(calls).toEqual([]);
    }
  });
});
