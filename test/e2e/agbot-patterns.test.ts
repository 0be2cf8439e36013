import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '#lib/json-logger';
import { buildCancel, buildReply } from '#lib/protocol/build-message';
import { signDeployment } from '#lib/protocol/deployment-signature';
import type { Proposal, ProtocolMessage, SecretUpdate } from '#lib/protocol/messages';
import { readProposal } from '#lib/protocol/parse-message';
import { REASON } from '#lib/protocol/reason-codes';
import { decodeSecretValue } from '#lib/protocol/secret-binding';
import { EVENT_MS } from '#test/support/deadlines';
import type { Credentials } from '#test/support/http';
import { createOrg, createUser, expectStatus } from '#test/support/world';
import type { Agbot } from '../../agbot/agbot.ts';
import { type Received, ScriptedNode } from '../../agbot/test-support/scripted-node.ts';
import {
  callerOf,
  exchangeAgbotAgreement,
  localAgreements,
  setUpAgbotOrg,
  startOrgAgbot,
  testSigner,
} from './support/agbot-org.ts';
import { roundsLater } from './support/agbot-rounds.ts';
import { useOffline } from './support/offline.ts';
import { startServeAllAgbot } from './support/serve-all-agbot.ts';

/**
 * Pattern agreements (docs/protocol.md#pattern-search, #compatibility-checks pattern case, docs/protocol.md#proposal-and-terms, #agreement-rows-and-states, #policy-and-configuration-changes):
 * the agbot against the real Exchange (serverless-offline over DynamoDB Local), serving every
 * pattern of its org (`*`), and scripted nodes registered with a pattern and no node policy.
 */
const server = useOffline();
const ORG = 'agbot-patterns';
const AGBOT = 'ab';
const AGBOT_TOKEN = 'ab-patterns-token';
/** How long the agbot may take to act on what a node sent (vitest's 1 s default is too short under load). */
const AGBOT_SETTLES = { timeout: EVENT_MS, interval: 200 };
const HELLO = { org: ORG, url: 'hello.pattern', version: '1.0.0', arch: 'amd64' };
const SECOND = { org: ORG, url: 'second.pattern', version: '2.0.0', arch: 'amd64' };

const signer = testSigner();
const withSecret = JSON.stringify({
  services: { hello: { image: 'busybox:latest', command: ['sleep', '600'], secrets: { token: {} } } },
});
const plain = JSON.stringify({ services: { second: { image: 'busybox:latest' } } });
const HOSTED = { org: ORG, url: 'engine.pattern', version: '1.0.0', arch: 'amd64' };
// Hands the host over through the engine socket (not `privileged`, not `network: host`).
const engineSocket = JSON.stringify({
  services: { ctl: { image: 'busybox:latest', binds: ['/var/run/docker.sock:/var/run/docker.sock'] } },
});

let owner: Credentials;
let admin: Credentials;
let dataDir: string;
let agbot: Agbot;
/** The agbot's debug lines "node not proposed to", with their fields. */
const skipped: Array<Record<string, unknown>> = [];
const recordingLog = {
  ...silentLogger,
  debug: (msg: string, fields?: Record<string, unknown>) => {
    if (msg === 'node not proposed to') skipped.push(fields ?? {});
  },
};

const call = callerOf(server);

const patternService = (s: typeof HELLO, extra: Record<string, unknown> = {}) => ({
  serviceUrl: s.url,
  serviceOrgid: s.org,
  serviceArch: s.arch,
  serviceVersions: [{ version: s.version, priority: { priority_value: 1 } }],
  nodeHealth: { missing_heartbeat_interval: 600, check_agreement_status: 120 },
  ...extra,
});
const binding = (s: typeof HELLO) => ({
  serviceOrgid: s.org,
  serviceUrl: s.url,
  enableNodeLevelSecrets: false,
  secrets: [{ token: 'patsecret' }],
});

async function postService(s: typeof HELLO, deployment: string): Promise<void> {
  const body = {
    label: s.url,
    url: s.url,
    version: s.version,
    arch: s.arch,
    sharable: 'multiple',
    deployment,
    deploymentSignature: signDeployment(deployment, signer.privateKey),
  };
  expectStatus(await call(owner, 'POST', `/v1/orgs/${ORG}/services`, body), 201, `POST ${s.url}`);
}

async function newNode(id: string, pattern: string): Promise<ScriptedNode> {
  const node = new ScriptedNode(server.baseUrl, ORG, id);
  await node.register(owner, pattern ? undefined : { properties: [] }, 'amd64', pattern);
  return node;
}

const proposalTo = async (node: ScriptedNode, url: string): Promise<Received & { message: Proposal }> =>
  (await node.waitFor(
    (m: ProtocolMessage) =>
      m.type === 'proposal' && readProposal(m as Proposal).terms.workloads?.[0]?.workloadUrl === url,
  )) as Received & { message: Proposal };
const agbotRow = (agreementId: string) => exchangeAgbotAgreement(server, admin, AGBOT, agreementId);
const archived = async (agreementId: string) =>
  (await localAgreements(agbot)).archived.find((a) => a.agreementId === agreementId);
const cancelOf = (node: ScriptedNode, agreementId: string) =>
  node.waitFor((m) => m.type === 'cancel' && m.agreementId === agreementId);

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'agbot-patterns-'));
  const serve = { kind: 'patterns' as const, row: { patternOrgid: ORG, pattern: '*', nodeOrgid: ORG } };
  ({ admin, owner } = await setUpAgbotOrg(server, { org: ORG, agbot: AGBOT, token: AGBOT_TOKEN, serve }));
  await postService(HELLO, withSecret);
  await postService(SECOND, plain);
  await postService(HOSTED, engineSocket);
  const pat = {
    label: 'pat',
    services: [patternService(HELLO)],
    secretBinding: [binding(HELLO)],
  };
  expectStatus(await call(owner, 'POST', `/v1/orgs/${ORG}/patterns/pat`, pat), 201, 'POST pat');
  // Another pattern whose only service runs without an agreement: no proposal ever.
  const other = { label: 'other', services: [patternService(SECOND, { agreementLess: true })] };
  expectStatus(await call(owner, 'POST', `/v1/orgs/${ORG}/patterns/other`, other), 201, 'POST other');
  expectStatus(
    await call(admin, 'PUT', `/v1/orgs/${ORG}/secrets/patsecret`, { key: 'user', value: 'pattern-value' }),
    201,
    'PUT secret',
  );
  agbot = await startOrgAgbot(server, {
    org: ORG,
    agbot: AGBOT,
    token: AGBOT_TOKEN,
    dataDir,
    log: recordingLog,
  });
}, 240_000);

afterAll(async () => {
  await agbot?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('pattern agreements against the real Exchange', () => {
  let node: ScriptedNode;
  let first: string;

  it('a node registered with the pattern (no node policy) gets a proposal with patternId; accept → both rows carry the pattern', async () => {
    node = await newNode('n-pat', `${ORG}/pat`);
    const { message: proposal, agbotId, agbotPubKey } = await proposalTo(node, HELLO.url);
    first = proposal.agreementId;
    const { terms } = readProposal(proposal);
    expect(terms.patternId).toBe(`${ORG}/pat`);
    expect(terms.header.name).toBe(
      `Policy for ${ORG}/n-pat merged with ${ORG}/pat_hello.pattern_${ORG}_amd64`,
    );
    expect(terms.workloads?.[0]).toMatchObject({
      workloadUrl: HELLO.url,
      organization: ORG,
      version: '1.0.0',
    });
    expect(terms.nodeHealth).toEqual({ missing_heartbeat_interval: 600, check_agreement_status: 120 });
    expect(terms.secretBinding).toEqual([binding(HELLO)]);
    const carried = terms.secretDetails?.[0]?.secrets?.[0]?.token as string;
    expect(decodeSecretValue(carried)).toEqual({ key: 'user', value: 'pattern-value' });
    expect(await agbotRow(first)).toMatchObject({
      service: { orgid: ORG, pattern: 'pat', url: HELLO.url },
      state: 'Formed Proposal',
    });

    await node.send({ agbotId, agbotPubKey }, buildReply(first, true, node.creds.user));
    expect((await node.waitFor((m) => m.type === 'replyack')).message).toMatchObject({ decision: true });
    await node.putAgreement(first, HELLO, 'Agree to proposal', `${ORG}/pat`);
    await vi.waitFor(
      async () => expect((await agbotRow(first))?.state).toBe('Finalized Agreement'),
      AGBOT_SETTLES,
    );
    const nodeRow = await call(owner, 'GET', `/v1/orgs/${ORG}/nodes/n-pat/agreements/${first}`);
    expect(nodeRow.body.agreements[first].agrService).toEqual({
      orgid: ORG,
      pattern: `${ORG}/pat`,
      url: `${ORG}/${HELLO.url}`,
    });
    const local = await localAgreements(agbot);
    expect(local.active.find((a) => a.agreementId === first)).toMatchObject({
      pattern: `${ORG}/pat`,
      policy: `${ORG}/pat_hello.pattern_${ORG}_amd64`,
    });
  });

  it('a secret bound by the pattern changes → basicagreementupdatesecret with the new value', async () => {
    expectStatus(
      await call(admin, 'PUT', `/v1/orgs/${ORG}/secrets/patsecret`, { key: 'user', value: 'new-value' }),
      201,
      'PUT secret',
    );
    const update = (await node.waitFor((m) => m.type === 'basicagreementupdate')).message as SecretUpdate;
    expect(update).toMatchObject({ agreementId: first, updateType: 'basicagreementupdatesecret' });
    expect(decodeSecretValue(update.metadata[0]?.secrets?.[0]?.token as string)).toEqual({
      key: 'user',
      value: 'new-value',
    });
  });

  it('a node with another pattern (agreement-less service) or with no pattern gets no proposal', async () => {
    const other = await newNode('n-other', `${ORG}/other`);
    const none = await newNode('n-none', '');
    // Several rounds after both became findable (the feed shows them; the rescan would not).
    await roundsLater(agbot, 4);
    await other.poll();
    await none.poll();
    expect(other.received).toEqual([]);
    expect(none.received).toEqual([]);
    // The first node still has exactly one proposal.
    await node.poll();
    expect(node.received.filter((r) => r.message.type === 'proposal')).toHaveLength(1);
    // Idle rounds read nothing again: the feed (POST /changes) is their only request.
    const before = { requests: agbot.exchangeRequests(), rounds: agbot.status().rounds };
    await roundsLater(agbot, 3);
    const rounds = agbot.status().rounds - before.rounds;
    expect(agbot.exchangeRequests() - before.requests).toBeLessThanOrEqual(rounds + 1);
  });

  it('a service binding the engine socket is proposed only to a node whose policy allows privileged services; the skip names the field', async () => {
    const pattern = { label: 'engine', services: [patternService(HOSTED)] };
    expectStatus(await call(owner, 'POST', `/v1/orgs/${ORG}/patterns/engine`, pattern), 201, 'POST engine');
    const closed = new ScriptedNode(server.baseUrl, ORG, 'n-closed');
    await closed.register(
      owner,
      { properties: [{ name: 'platform.allowPrivileged', value: false }] },
      'amd64',
      `${ORG}/engine`,
    );
    const open = new ScriptedNode(server.baseUrl, ORG, 'n-open');
    await open.register(
      owner,
      { properties: [{ name: 'platform.allowPrivileged', value: true }] },
      'amd64',
      `${ORG}/engine`,
    );
    const { message } = await proposalTo(open, HOSTED.url);
    expect(readProposal(message).terms.patternId).toBe(`${ORG}/engine`);
    await vi.waitFor(
      () =>
        expect(skipped).toContainEqual(
          expect.objectContaining({
            node: `${ORG}/n-closed`,
            reason:
              'the service needs privileged mode, which the node policy does not allow (container ctl: binds "/var/run/docker.sock:/var/run/docker.sock" mounts a socket (a container engine can be driven through it))',
          }),
        ),
      AGBOT_SETTLES,
    );
    await closed.poll();
    expect(closed.received).toEqual([]);
  });

  it('the service removed from the pattern → cancel 204, row deleted, archived; the pattern’s new service is proposed', async () => {
    const patch = { services: [patternService(SECOND)] };
    expectStatus(await call(owner, 'PATCH', `/v1/orgs/${ORG}/patterns/pat`, patch), 201, 'PATCH pat');
    expect((await cancelOf(node, first)).message).toMatchObject({ reason: 204 });
    await vi.waitFor(
      async () => {
        expect(await agbotRow(first)).toBeUndefined();
        expect(await archived(first)).toMatchObject({ terminatedReason: 204, pattern: `${ORG}/pat` });
      },
      { timeout: EVENT_MS, interval: 200 },
    );
    // The node row would be removed by the agent on cancel; the scripted node does it here.
    await call(node.creds, 'DELETE', `/v1/orgs/${ORG}/nodes/n-pat/agreements/${first}`);
    const { message } = await proposalTo(node, SECOND.url);
    expect(readProposal(message).terms).toMatchObject({ patternId: `${ORG}/pat` });
    expect(readProposal(message).terms.secretDetails).toBeUndefined();
  });

  it('version fallback as for a policy: a version whose workload failed `retries` times is passed over for the next by priority', async () => {
    const FLAKY = { org: ORG, url: 'flaky.pattern', version: '2.0.0', arch: 'amd64' };
    await postService(FLAKY, plain);
    await postService({ ...FLAKY, version: '1.0.0' }, plain);
    const retrying = (priority: number) => ({ priority_value: priority, retries: 1, retry_durations: 3600 });
    const fallback = {
      label: 'fallback',
      services: [
        patternService(FLAKY, {
          serviceVersions: [
            { version: '2.0.0', priority: retrying(1) },
            { version: '1.0.0', priority: retrying(2) },
          ],
        }),
      ],
    };
    expectStatus(
      await call(owner, 'POST', `/v1/orgs/${ORG}/patterns/fallback`, fallback),
      201,
      'POST fallback',
    );
    const flakyNode = await newNode('n-fallback', `${ORG}/fallback`);
    const { message: proposal, agbotId, agbotPubKey } = await proposalTo(flakyNode, FLAKY.url);
    expect(readProposal(proposal).terms.workloads?.[0]?.version).toBe('2.0.0');
    await flakyNode.send(
      { agbotId, agbotPubKey },
      buildReply(proposal.agreementId, true, flakyNode.creds.user),
    );
    await flakyNode.waitFor((m) => m.type === 'replyack' && m.agreementId === proposal.agreementId);
    await flakyNode.putAgreement(proposal.agreementId, FLAKY, 'Agree to proposal', `${ORG}/fallback`);
    await vi.waitFor(
      async () => expect((await agbotRow(proposal.agreementId))?.state).toBe('Finalized Agreement'),
      AGBOT_SETTLES,
    );

    // The container exits at once: the node ends the agreement with "service terminated" (103)
    // and deletes its agreement row, as the agent does (that change brings the pattern's search).
    await flakyNode.send(
      { agbotId, agbotPubKey },
      buildCancel(proposal.agreementId, REASON.serviceTerminated),
    );
    await vi.waitFor(
      async () => expect((await archived(proposal.agreementId))?.terminatedReason).toBe(103),
      AGBOT_SETTLES,
    );
    expectStatus(
      await call(owner, 'DELETE', `/v1/orgs/${ORG}/nodes/n-fallback/agreements/${proposal.agreementId}`),
      204,
      'DELETE node agreement',
    );
    const next = (await flakyNode.waitFor(
      (m) => m.type === 'proposal' && m.agreementId !== proposal.agreementId,
      30_000,
    )) as Received & { message: Proposal };
    expect(readProposal(next.message).terms.workloads?.[0]).toMatchObject({
      workloadUrl: FLAKY.url,
      version: '1.0.0',
    });
  }, 90_000);

  it('the pattern deleted → its live agreement is cancelled with 204', async () => {
    const { message } = await proposalTo(node, SECOND.url);
    expectStatus(await call(owner, 'DELETE', `/v1/orgs/${ORG}/patterns/pat`), 204, 'DELETE pat');
    expect((await cancelOf(node, message.agreementId)).message).toMatchObject({ reason: 204 });
    await vi.waitFor(
      async () => expect(await archived(message.agreementId)).toMatchObject({ terminatedReason: 204 }),
      {
        timeout: EVENT_MS,
        interval: 200,
      },
    );
  });

  it('serve-all (IBM agbot of npm start): the pattern of an org created after the start finds its node', async () => {
    const root = { user: 'root/root', secret: server.rootPassword };
    const mt = await startServeAllAgbot(server.baseUrl, 'mt-pat', silentLogger);
    try {
      const LATE = 'agbot-patterns-late';
      await createOrg({ http: server.http, root }, LATE);
      const lateUser = await createUser({ http: server.http, root }, LATE, 'owner');
      const late = { ...SECOND, org: LATE, url: 'late.pattern' };
      const body = {
        label: late.url,
        url: late.url,
        version: late.version,
        arch: late.arch,
        sharable: 'multiple',
        deployment: plain,
        deploymentSignature: signDeployment(plain, signer.privateKey),
      };
      expectStatus(await call(lateUser, 'POST', `/v1/orgs/${LATE}/services`, body), 201, 'POST late service');
      const pattern = { label: 'late', services: [patternService(late)] };
      expectStatus(
        await call(lateUser, 'POST', `/v1/orgs/${LATE}/patterns/late-pat`, pattern),
        201,
        'POST late pattern',
      );
      const lateNode = new ScriptedNode(server.baseUrl, LATE, 'late-node');
      await lateNode.register(lateUser, undefined, 'amd64', `${LATE}/late-pat`);
      const { message, agbotId } = await proposalTo(lateNode, late.url);
      expect(agbotId).toBe('IBM/mt-pat');
      expect(readProposal(message).terms.patternId).toBe(`${LATE}/late-pat`);
      const served = await call(root, 'GET', '/v1/orgs/IBM/agbots/mt-pat/patterns');
      expect(Object.values(served.body.patterns)).toContainEqual(
        expect.objectContaining({ patternOrgid: LATE, pattern: '*', nodeOrgid: LATE }),
      );
    } finally {
      await mt.stop();
    }
  });
});
