import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getPolicy } from '#functions/agbot-status/get-policy';
import { handler as listAgreements } from '#functions/agbot-status/list-agreements';
import { handler as listPolicies } from '#functions/agbot-status/list-policies';
import { BUILT_IN_AGBOT } from '#lib/agbot/built-in';
import type { AgbotAgreement } from '#lib/agbot-store/contract';
import { localKeyProvider } from '#lib/secrets/local-key-provider';
import { dynamoAgbotStore } from '#tables/agbot-state/store';
import { dynamoUsageOf } from '#test/support/dynamo-usage';
import { createAgbot, createNode, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';

useTestTable();

type Auth = { user: string; secret: string };
const now = new Date('2031-05-06T07:08:09.010Z');
const clock = { clock: { now: () => now } };
const get = getPolicy.withDeps(clock);

const agreement = (id: string, policy: string, nodeOrg: string, over: Partial<AgbotAgreement> = {}) => ({
  agreementId: id,
  nodeOrg,
  nodeId: `node-${id}`,
  policy,
  service: { org: 'acme', url: 'svc', version: '1.0.0', arch: 'amd64' },
  state: 'Formed Proposal',
  createdAt: now.getTime() - 60_000,
  updatedAt: now.getTime() - 60_000,
  archived: false,
  ...over,
});

let alice: Auth;
let hub: Auth;
let stranger: Auth;
let node: Auth;
let agbot: Auth;

beforeAll(async () => {
  await createOrg('acme');
  await createOrg('beta');
  alice = await createUser('acme', 'alice');
  hub = await createUser('root', 'hub', { hubAdmin: true });
  stranger = await createUser('beta', 'stranger', { admin: true });
  node = await createNode('acme', 'n1', 'acme/alice');
  agbot = await createAgbot('acme', 'a1', 'acme/alice');
  const store = dynamoAgbotStore(BUILT_IN_AGBOT, () => localKeyProvider(Buffer.alloc(32, 1)));
  await store.saveAgreement(agreement('a1', 'acme/pol', 'acme'));
  await store.saveAgreement(
    agreement('a2', 'acme/pol', 'beta', {
      state: 'Finalized Agreement',
      details: {
        protocolTimeoutS: 240,
        secrets: [],
        repliedAt: now.getTime() - 3_600_000,
        workload: { state: 'running', at: now.getTime() - 60_000 },
      },
    }),
  );
  await store.saveAgreement(agreement('b1', 'beta/theirs', 'beta'));
  await store.saveAgreement(
    agreement('a3', 'acme/pol', 'acme', {
      archived: true,
      terminatedReason: 202,
      terminatedDescription: 'no',
    }),
  );
  await store.savePolicyStatus({
    policy: 'acme/pol',
    search: { at: now.getTime() - 1000, full: true, found: 4, matched: 2, skipped: 2 },
    skipped: [
      { node: 'acme/arm', reason: 'service arch amd64 is not arm64', since: now.getTime() - 1000 },
      { node: 'beta/secret-node', reason: 'policy mismatch', since: now.getTime() - 2000 },
    ],
  });
  await store.savePolicyStatus({
    policy: 'acme/pat_svc_acme_amd64',
    pattern: 'acme/pat',
    search: { at: now.getTime(), full: true, found: 0, matched: 0, skipped: 0 },
    skipped: [],
  });
  await store.savePolicyStatus({
    policy: 'beta/theirs',
    search: { at: now.getTime(), full: true, found: 1, matched: 1, skipped: 0 },
    skipped: [],
  });
});

const names = (auth: Auth, organization = 'acme') => invoke(listPolicies, { auth, path: { organization } });
const one = (auth: Auth, policy: string, organization = 'acme') =>
  invoke(get, { auth, path: { organization, policy } });
const agreements = (auth: Auth, query?: Record<string, string>, organization = 'acme') =>
  invoke(listAgreements, { auth, path: { organization }, ...(query ? { query } : {}) });

describe('GET /v1/orgs/{organization}/agbotstatus/policies', () => {
  it("lists the org's policies and pattern services in upstream's org → names shape", async () => {
    expect(await names(alice)).toMatchObject({ status: 200, body: { acme: ['pat_svc_acme_amd64', 'pol'] } });
    expect(await names(stranger, 'beta')).toMatchObject({ status: 200, body: { beta: ['theirs'] } });
  });

  it('is refused to users of other orgs, nodes and agbots; allowed to root and hub admins', async () => {
    for (const auth of [stranger, node, agbot]) expect((await names(auth)).status).toBe(403);
    expect((await names(ROOT)).status).toBe(200);
    expect((await names(hub)).status).toBe(200);
  });
});

describe('GET /v1/orgs/{organization}/agbotstatus/policies/{policy}', () => {
  it("gives a user the counts and the skipped nodes of the user's own org only", async () => {
    const answer = await one(alice, 'pol');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      org: 'acme',
      name: 'pol',
      matched: 2,
      proposed: 1,
      agreed: 1,
      running: 1,
      failing: 0,
      lastSearch: {
        at: new Date(now.getTime() - 1000).toISOString(),
        full: true,
        found: 4,
        matched: 2,
        skipped: 2,
      },
      skipped: [
        {
          node: 'acme/arm',
          reason: 'service arch amd64 is not arm64',
          since: new Date(now.getTime() - 1000).toISOString(),
        },
      ],
    });
    expect(JSON.stringify(answer.body)).not.toContain('secret-node');
  });

  it('gives root and hub admins every skipped node', async () => {
    for (const auth of [ROOT, hub]) {
      const answer = await one(auth, 'pol');
      expect((answer.body as { skipped: { node: string }[] }).skipped.map((s) => s.node)).toEqual([
        'acme/arm',
        'beta/secret-node',
      ]);
    }
  });

  it('answers a pattern service with its pattern; 404 for a policy the agbot knows nothing of', async () => {
    expect((await one(alice, 'pat_svc_acme_amd64')).body).toMatchObject({ pattern: 'acme/pat', matched: 0 });
    expect(await one(alice, 'nope')).toMatchObject({ status: 404, body: { code: 'not-found' } });
  });

  it("never shows another org's policy: 403 for its path, and its name is not found under one's own", async () => {
    expect((await one(alice, 'theirs', 'beta')).status).toBe(403);
    expect((await one(node, 'pol')).status).toBe(403);
    expect((await one(alice, 'theirs')).status).toBe(404);
  });
});

describe('GET /v1/orgs/{organization}/agbotstatus/agreements', () => {
  it("lists the org's active agreements in upstream's agbot fields, a user's own nodes only", async () => {
    const mine = (await agreements(alice)).body as {
      agreements: { active: { current_agreement_id: string }[] };
    };
    expect(mine.agreements.active.map((a) => a.current_agreement_id)).toEqual(['a1']);
    const all = (await agreements(ROOT)).body as typeof mine;
    expect(all.agreements.active.map((a) => a.current_agreement_id).sort()).toEqual(['a1', 'a2']);
    expect(all.agreements.active[0]).toMatchObject({ device_id: 'acme/node-a1', policy_name: 'acme/pol' });
  });

  it("reads the org's live agreements only (one index Query) and writes nothing", async () => {
    const calls = await dynamoUsageOf(() => agreements(ROOT));
    const reads = calls.filter((call) => call.command === 'Query');
    expect(reads).toHaveLength(1);
    expect(calls.every((call) => call.writeUnits === 0)).toBe(true);
    // Another org's agreements are not in the partition it reads.
    const before = reads[0]?.readUnits;
    const store = dynamoAgbotStore(BUILT_IN_AGBOT, () => localKeyProvider(Buffer.alloc(32, 1)));
    for (let i = 0; i < 30; i++)
      await store.saveAgreement(
        agreement(`other-${i}`, `other/p${i}`, 'other', { terminatedDescription: 'x'.repeat(500) }),
      );
    const after = (await dynamoUsageOf(() => agreements(ROOT))).filter((call) => call.command === 'Query');
    expect(after.map((call) => call.readUnits)).toEqual([before]);
  });

  it('lists the archived ones with archived=true; a bad flag is 400 naming it; other orgs 403', async () => {
    const archived = (await agreements(alice, { archived: 'true' })).body as {
      agreements: { archived: { current_agreement_id: string; terminated_reason: number }[] };
    };
    expect(archived.agreements.archived).toEqual([
      expect.objectContaining({ current_agreement_id: 'a3', terminated_reason: 202 }),
    ]);
    const bad = await agreements(alice, { archived: 'yes' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('archived');
    expect((await agreements(stranger)).status).toBe(403);
  });
});
