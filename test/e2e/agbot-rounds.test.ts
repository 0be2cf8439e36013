import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Logger } from '#lib/json-logger';
import { buildCancel, buildReply, buildVerify } from '#lib/protocol/build-message';
import { signDeployment } from '#lib/protocol/deployment-signature';
import { seal } from '#lib/protocol/envelope-seal';
import { generateMessagingKeys, parseExchangePublicKey } from '#lib/protocol/keys';
import type { Proposal, ProtocolMessage, SecretUpdate } from '#lib/protocol/messages';
import { readProposal } from '#lib/protocol/parse-message';
import { decodeSecretValue } from '#lib/protocol/secret-binding';
import { EVENT_MS } from '#test/support/deadlines';
import type { Credentials } from '#test/support/http';
import { createOrg, createUser, expectStatus } from '#test/support/world';
import type { Agbot } from '../../agbot/agbot.ts';
import { type Received, ScriptedNode } from '../../agbot/test-support/scripted-node.ts';
import { hzn } from '../../cli/test-support/run-hzn.ts';
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
 * The agbot's rounds against the real Exchange (serverless-offline over DynamoDB Local), with
 * scripted nodes built on lib/protocol: proposals with the bound secret's value, accept → both
 * agreement rows, reject → 202, no reply → 201 (clock moved on), deployment policy change → 204,
 * secret change → update message, restart mid-negotiation, and the mailbox safety rules.
 */
const server = useOffline();
const ORG = 'agbot-rounds';
const AGBOT = 'ab';
const AGBOT_TOKEN = 'ab-rounds-token';
const SERVICE = { org: ORG, url: 'hello.rounds', version: '1.0.0', arch: 'amd64' };
const SECRET_PATH = `/v1/orgs/${ORG}/secrets/mysecret`;

const signer = testSigner();
const deployment = JSON.stringify({
  services: { hello: { image: 'busybox:latest', command: ['sleep', '600'], secrets: { token: {} } } },
});

/** Nodes made by earlier tests, by id (the tests run in order and share the Exchange). */
const nodes: Record<string, ScriptedNode> = {};
let admin: Credentials;
let owner: Credentials;
let dataDir: string;
let agbot: Agbot;
const lines: string[] = [];
const captureLog: Logger = Object.fromEntries(
  (['debug', 'info', 'warn', 'error'] as const).map((level) => [
    level,
    (msg: string, fields: Record<string, unknown> = {}) =>
      lines.push(JSON.stringify({ level, msg, ...fields })),
  ]),
) as unknown as Logger;

async function startAgbot(env: Record<string, string> = {}): Promise<void> {
  const options = { org: ORG, agbot: AGBOT, token: AGBOT_TOKEN, dataDir, log: captureLog, env };
  agbot = await startOrgAgbot(server, options);
}

const call = callerOf(server);

async function createPolicy(name: string, constraints: string[]): Promise<void> {
  const body = {
    label: name,
    service: { name: SERVICE.url, org: ORG, arch: 'amd64', serviceVersions: [{ version: '1.0.0' }] },
    constraints,
    secretBinding: [
      {
        serviceOrgid: ORG,
        serviceUrl: SERVICE.url,
        enableNodeLevelSecrets: false,
        secrets: [{ token: 'mysecret' }],
      },
    ],
  };
  expectStatus(
    await call(owner, 'POST', `/v1/orgs/${ORG}/business/policies/${name}`, body),
    201,
    `POST policy ${name}`,
  );
}

async function newNode(id: string, test: string): Promise<ScriptedNode> {
  const node = new ScriptedNode(server.baseUrl, ORG, id);
  await node.register(owner, { properties: [{ name: 'test', value: test }] });
  nodes[id] = node;
  return node;
}

const isType = (type: string) => (m: ProtocolMessage) => m.type === type;
const proposalOf = async (node: ScriptedNode): Promise<Received & { message: Proposal }> =>
  (await node.waitFor(isType('proposal'))) as Received & { message: Proposal };

const agbotAgreement = (agreementId: string) => exchangeAgbotAgreement(server, admin, AGBOT, agreementId);
const local = () => localAgreements(agbot);
const archived = async (agreementId: string) =>
  (await local()).archived.find((a) => a.agreementId === agreementId);

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'agbot-rounds-'));
  const serve = {
    kind: 'businesspols' as const,
    row: { businessPolOrgid: ORG, businessPol: '*', nodeOrgid: ORG },
  };
  ({ admin, owner } = await setUpAgbotOrg(server, { org: ORG, agbot: AGBOT, token: AGBOT_TOKEN, serve }));
  const service = {
    label: SERVICE.url,
    url: SERVICE.url,
    version: SERVICE.version,
    arch: SERVICE.arch,
    sharable: 'multiple',
    deployment,
    deploymentSignature: signDeployment(deployment, signer.privateKey),
  };
  expectStatus(await call(owner, 'POST', `/v1/orgs/${ORG}/services`, service), 201, 'POST service');
  expectStatus(
    await call(admin, 'PUT', SECRET_PATH, { key: 'user', value: 'first-value' }),
    201,
    'PUT secret',
  );
  await startAgbot();
}, 240_000);

afterAll(async () => {
  await agbot?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('agbot rounds against the real Exchange', () => {
  it('proposes with the bound secret; accept → "Finalized Agreement" row, replyack, node row; nothing secret in logs, status or DB', async () => {
    await createPolicy('p-accept', ['test == accept']);
    const node = await newNode('n-accept', 'accept');
    const { message: proposal, agbotId, agbotPubKey } = await proposalOf(node);
    expect(agbotId).toBe(`${ORG}/${AGBOT}`);
    expect(proposal.consumerId).toBe(`${ORG}/${AGBOT}`);
    const { terms, producerPolicy } = readProposal(proposal);
    expect(terms.header.name).toBe(`Policy for ${ORG}/n-accept merged with ${ORG}/p-accept`);
    expect(terms.workloads?.[0]).toMatchObject({ workloadUrl: SERVICE.url, version: '1.0.0', arch: 'amd64' });
    expect(terms.constraints).toEqual(['test == accept']);
    expect(producerPolicy.properties).toEqual([{ name: 'test', value: 'accept' }]);
    const carried = terms.secretDetails?.[0]?.secrets?.[0]?.token as string;
    expect(decodeSecretValue(carried)).toEqual({ key: 'user', value: 'first-value' });
    expect((await agbotAgreement(proposal.agreementId))?.state).toBe('Formed Proposal');

    await node.send({ agbotId, agbotPubKey }, buildReply(proposal.agreementId, true, node.creds.user));
    const ack = await node.waitFor(isType('replyack'));
    expect(ack.message).toMatchObject({ agreementId: proposal.agreementId, decision: true });
    await node.putAgreement(proposal.agreementId, SERVICE);
    await vi.waitFor(
      async () => expect((await agbotAgreement(proposal.agreementId))?.state).toBe('Finalized Agreement'),
      { timeout: EVENT_MS, interval: 200 },
    );
    const nodeRow = await call(
      owner,
      'GET',
      `/v1/orgs/${ORG}/nodes/n-accept/agreements/${proposal.agreementId}`,
    );
    expect(nodeRow.body.agreements[proposal.agreementId].state).toBe('Agree to proposal');
    expect((await local()).active.find((a) => a.agreementId === proposal.agreementId)?.state).toBe(
      'Finalized Agreement',
    );

    // A verification from the node is answered: it exists.
    await node.send({ agbotId, agbotPubKey }, buildVerify(proposal.agreementId));
    expect((await node.waitFor(isType('basicagreementverificationreply'))).message).toMatchObject({
      exists: true,
    });

    const everything =
      JSON.stringify(await local()) +
      lines.join('\n') +
      readFileSync(join(dataDir, 'agbot.db')).toString('latin1');
    expect(everything).not.toContain('first-value');
    expect(everything).not.toContain(carried);
    // No second proposal to the node for the same policy, several rounds later.
    await roundsLater(agbot, 3);
    await node.poll();
    expect(node.received.filter((r) => r.message.type === 'proposal')).toHaveLength(1);
  });

  it('a secret change reaches every agreement binding it in one round: basicagreementupdatesecret with the new value', async () => {
    const changedAt = Date.now();
    expectStatus(
      await call(admin, 'PUT', SECRET_PATH, { key: 'user', value: 'second-value' }),
      201,
      'PUT secret',
    );
    const update = (await nodes['n-accept']?.waitFor(isType('basicagreementupdate')))
      ?.message as SecretUpdate;
    expect(update.updateType).toBe('basicagreementupdatesecret');
    expect(decodeSecretValue(update.metadata[0]?.secrets?.[0]?.token as string)).toEqual({
      key: 'user',
      value: 'second-value',
    });
    console.info(`secret written → update at the node: ${Date.now() - changedAt} ms (poll 0.3 s)`);
    expect(lines.join('\n')).not.toContain('second-value');
  });

  it('a deployment policy change that the node no longer matches → cancel 204, row deleted, archived with 204', async () => {
    const node = nodes['n-accept'] as ScriptedNode;
    const { message: proposal } = await proposalOf(node);
    const patch = { constraints: ['test == something-else'] };
    expectStatus(
      await call(owner, 'PATCH', `/v1/orgs/${ORG}/business/policies/p-accept`, patch),
      201,
      'PATCH policy',
    );
    const cancel = await node.waitFor((m) => m.type === 'cancel' && m.agreementId === proposal.agreementId);
    expect(cancel.message).toMatchObject({ reason: 204 });
    await vi.waitFor(async () => expect(await agbotAgreement(proposal.agreementId)).toBeUndefined(), {
      timeout: EVENT_MS,
      interval: 200,
    });
    // The node is told first; the row goes and the archive follows (cancel.ts).
    await vi.waitFor(
      async () =>
        expect(await archived(proposal.agreementId)).toMatchObject({
          terminatedReason: 204,
          terminatedDescription: 'agreement bot policy changed',
        }),
      { timeout: EVENT_MS, interval: 200 },
    );
  });

  it('reject → cancel 202 to the node, the agbot agreement row deleted, archived with 202', async () => {
    await createPolicy('p-reject', ['test == reject']);
    const node = await newNode('n-reject', 'reject');
    const { message: proposal, agbotId, agbotPubKey } = await proposalOf(node);
    await node.send({ agbotId, agbotPubKey }, buildReply(proposal.agreementId, false, node.creds.user));
    const cancel = await node.waitFor((m) => m.type === 'cancel' && m.agreementId === proposal.agreementId);
    expect(cancel.message).toMatchObject({ reason: 202 });
    await vi.waitFor(
      async () => {
        expect(await agbotAgreement(proposal.agreementId)).toBeUndefined();
        expect(await archived(proposal.agreementId)).toMatchObject({ terminatedReason: 202 });
      },
      { timeout: EVENT_MS, interval: 200 },
    );
  });

  it('a node that cancels after a round already saw its change is proposed to again in the next round, not at the full rescan', async () => {
    await createPolicy('p-recancel', ['test == recancel']);
    const node = await newNode('n-recancel', 'recancel');
    const { message: proposal, agbotId, agbotPubKey } = await proposalOf(node);
    await node.send({ agbotId, agbotPubKey }, buildReply(proposal.agreementId, true, node.creds.user));
    await node.waitFor(isType('replyack'));
    await node.putAgreement(proposal.agreementId, SERVICE);
    await vi.waitFor(
      async () => expect((await agbotAgreement(proposal.agreementId))?.state).toBe('Finalized Agreement'),
      { timeout: EVENT_MS, interval: 200 },
    );
    // The node changes (as a node ending an agreement does) and rounds (0.3 s each) search it while
    // the agreement is still live; only then does its cancel arrive.
    await node.setPolicy({ properties: [{ name: 'test', value: 'recancel' }] });
    await roundsLater(agbot, 3);
    await node.send({ agbotId, agbotPubKey }, buildCancel(proposal.agreementId, 200));
    const next = await node.waitFor(
      (m) => m.type === 'proposal' && m.agreementId !== proposal.agreementId,
      15_000,
    );
    expect(next.agbotId).toBe(`${ORG}/${AGBOT}`);
    expect(await archived(proposal.agreementId)).toMatchObject({ terminatedReason: 200 });
  });

  it('no reply within the protocol timeout (shortened to 2 s) → cancel 201, archived with 201', async () => {
    await agbot.stop();
    await startAgbot({ HZN_AGBOT_PROTOCOL_TIMEOUT_SECONDS: '2' });
    await createPolicy('p-silent', ['test == silent']);
    const node = await newNode('n-silent', 'silent');
    const { message: proposal } = await proposalOf(node);
    const cancel = await node.waitFor((m) => m.type === 'cancel' && m.agreementId === proposal.agreementId);
    expect(cancel.message).toMatchObject({ reason: 201 });
    // The cancel goes out before the agreement is archived: wait for the archive.
    await vi.waitFor(
      async () =>
        expect(await archived(proposal.agreementId)).toMatchObject({
          terminatedReason: 201,
          terminatedDescription: 'agreement bot never received reply to proposal',
        }),
      { timeout: EVENT_MS, interval: 200 },
    );
    await agbot.stop();
    await startAgbot();
  });

  it('a restart in the middle of a negotiation loses nothing and proposes nothing twice', async () => {
    await createPolicy('p-restart', ['test == restart']);
    const node = await newNode('n-restart', 'restart');
    const { message: proposal, agbotId, agbotPubKey } = await proposalOf(node);
    await agbot.stop();
    await node.send({ agbotId, agbotPubKey }, buildReply(proposal.agreementId, true, node.creds.user));
    await startAgbot();
    const ack = await node.waitFor((m) => m.type === 'replyack' && m.agreementId === proposal.agreementId);
    expect(ack.message).toMatchObject({ decision: true });
    await vi.waitFor(
      async () => expect((await agbotAgreement(proposal.agreementId))?.state).toBe('Finalized Agreement'),
      { timeout: EVENT_MS, interval: 200 },
    );
    await node.putAgreement(proposal.agreementId, SERVICE);
    await roundsLater(agbot, 3);
    await node.poll();
    expect(
      node.received.filter((r) => r.message.type === 'proposal').map((r) => r.message.agreementId),
    ).toEqual([proposal.agreementId]);
  });

  it('mailbox safety: garbage and another node’s message are deleted with a warning; an unknown agreement’s message stays', async () => {
    const node = nodes['n-restart'] as ScriptedNode;
    const { message: proposal, agbotPubKey } = await proposalOf(node);
    const agbotCreds = { user: `${ORG}/${AGBOT}`, secret: AGBOT_TOKEN };
    const mailbox = `/v1/orgs/${ORG}/agbots/${AGBOT}/msgs`;
    const post = async (from: ScriptedNode, message: string) =>
      expectStatus(await call(from.creds, 'POST', mailbox, { message, ttl: 300 }), 201, 'POST agbot msg');

    // Garbage; a cancel of n-restart's agreement from another node; a message about an agreement nobody knows.
    const other = await newNode('n-other', 'nothing-matches');
    await post(node, Buffer.from('{"wrappedMessage":"AAAA","symmetricValues":"AAAA"}').toString('base64'));
    const forged = buildCancel(proposal.agreementId, 105);
    await post(
      other,
      seal(JSON.stringify(forged), other.keys.privateKey, parseExchangePublicKey(agbotPubKey)),
    );
    const unknownId = 'f'.repeat(64);
    await post(
      node,
      seal(
        JSON.stringify(buildCancel(unknownId, 105)),
        node.keys.privateKey,
        parseExchangePublicKey(agbotPubKey),
      ),
    );
    // A message signed with a key that is not the sender's published one.
    const stranger = generateMessagingKeys();
    await post(
      node,
      seal(
        JSON.stringify(buildCancel(proposal.agreementId, 105)),
        stranger.privateKey,
        parseExchangePublicKey(agbotPubKey),
      ),
    );

    await vi.waitFor(
      async () => {
        const left = (await call(agbotCreds, 'GET', mailbox)).body?.messages ?? [];
        expect(left).toHaveLength(1);
      },
      { timeout: EVENT_MS, interval: 300 },
    );
    const warnings = lines.filter((l) => l.includes('"level":"warn"')).join('\n');
    expect(warnings).toContain('agbot message dropped');
    expect(warnings).toContain('agbot message from another node dropped');
    // Nothing changed: the agreement is still finalized.
    expect((await agbotAgreement(proposal.agreementId))?.state).toBe('Finalized Agreement');
    expect((await local()).active.some((a) => a.agreementId === proposal.agreementId)).toBe(true);
  });

  it('a node deleted from the Exchange → its agreement is cancelled (209), the agbot row deleted', async () => {
    await createPolicy('p-gone', ['test == gone']);
    const node = await newNode('n-gone', 'gone');
    const { message: proposal, agbotId, agbotPubKey } = await proposalOf(node);
    await node.send({ agbotId, agbotPubKey }, buildReply(proposal.agreementId, true, node.creds.user));
    await node.waitFor(isType('replyack'));
    await node.putAgreement(proposal.agreementId, SERVICE);
    expectStatus(await call(owner, 'DELETE', `/v1/orgs/${ORG}/nodes/n-gone`), 204, 'DELETE node');
    await vi.waitFor(
      async () => expect(await archived(proposal.agreementId)).toMatchObject({ terminatedReason: 209 }),
      {
        timeout: EVENT_MS,
        interval: 200,
      },
    );
    expect(await agbotAgreement(proposal.agreementId)).toBeUndefined();
  });

  it('a service whose dependency has no version in range for the node arch → the node is never proposed to', async () => {
    const dep = { label: 'dep', url: 'dep.rounds', arch: 'amd64', sharable: 'singleton' };
    const depDeployment = JSON.stringify({ services: { dep: { image: 'busybox:latest' } } });
    const signed = {
      deployment: depDeployment,
      deploymentSignature: signDeployment(depDeployment, signer.privateKey),
    };
    // The Exchange wants a version in range when the parent is published: 1.0.0, deleted after.
    for (const version of ['1.0.0', '2.0.0'])
      expectStatus(
        await call(owner, 'POST', `/v1/orgs/${ORG}/services`, { ...dep, version, ...signed }),
        201,
        `POST dep ${version}`,
      );
    const parent = {
      label: 'needs-dep',
      url: 'needs-dep.rounds',
      version: '1.0.0',
      arch: 'amd64',
      sharable: 'multiple',
      requiredServices: [{ org: ORG, url: dep.url, versionRange: '[1.0.0,2.0.0)', arch: 'amd64' }],
      ...signed,
    };
    expectStatus(await call(owner, 'POST', `/v1/orgs/${ORG}/services`, parent), 201, 'POST parent');
    expectStatus(
      await call(owner, 'DELETE', `/v1/orgs/${ORG}/services/${dep.url}_1.0.0_amd64`),
      204,
      'DELETE dep 1.0.0',
    );
    const body = {
      label: 'p-deps',
      service: { name: parent.url, org: ORG, arch: 'amd64', serviceVersions: [{ version: '1.0.0' }] },
      constraints: ['test == deps'],
    };
    expectStatus(
      await call(owner, 'POST', `/v1/orgs/${ORG}/business/policies/p-deps`, body),
      201,
      'POST p-deps',
    );
    const node = await newNode('n-deps', 'deps');
    const skipped = () =>
      lines.some(
        (line) =>
          line.includes('node not proposed to') &&
          line.includes(`${ORG}/n-deps`) &&
          line.includes('dep.rounds'),
      );
    await vi.waitFor(() => expect(skipped()).toBe(true), { timeout: EVENT_MS, interval: 200 });
    await node.poll();
    expect(node.received.filter((r) => r.message.type === 'proposal')).toEqual([]);
  });

  it('a service mapping a host device is proposed only to a node whose policy allows privileged services; the skip names the field', async () => {
    const devDeployment = JSON.stringify({
      services: { serial: { image: 'busybox:latest', devices: ['/dev/ttyUSB0'] } },
    });
    const service = {
      label: 'serial',
      url: 'serial.rounds',
      version: '1.0.0',
      arch: 'amd64',
      sharable: 'multiple',
      deployment: devDeployment,
      deploymentSignature: signDeployment(devDeployment, signer.privateKey),
    };
    expectStatus(await call(owner, 'POST', `/v1/orgs/${ORG}/services`, service), 201, 'POST serial');
    const body = {
      label: 'p-serial',
      service: { name: service.url, org: ORG, arch: 'amd64', serviceVersions: [{ version: '1.0.0' }] },
      constraints: ['test == serial'],
    };
    expectStatus(
      await call(owner, 'POST', `/v1/orgs/${ORG}/business/policies/p-serial`, body),
      201,
      'POST p-serial',
    );
    const closed = new ScriptedNode(server.baseUrl, ORG, 'n-serial-closed');
    await closed.register(owner, {
      properties: [
        { name: 'test', value: 'serial' },
        { name: 'platform.allowPrivileged', value: false },
      ],
    });
    const open = new ScriptedNode(server.baseUrl, ORG, 'n-serial-open');
    await open.register(owner, {
      properties: [
        { name: 'test', value: 'serial' },
        { name: 'platform.allowPrivileged', value: true },
      ],
    });
    const proposal = await proposalOf(open);
    expect(readProposal(proposal.message).terms.workloads?.[0]?.workloadUrl).toBe('serial.rounds');
    const reason =
      'the service needs privileged mode, which the node policy does not allow (container serial: devices \\"/dev/ttyUSB0\\" reaches a host device)';
    const skipped = () =>
      lines.some(
        (line) =>
          line.includes('node not proposed to') &&
          line.includes(`${ORG}/n-serial-closed`) &&
          line.includes(reason),
      );
    await vi.waitFor(() => expect(skipped()).toBe(true), { timeout: EVENT_MS, interval: 200 });
    await closed.poll();
    expect(closed.received).toEqual([]);
    // The same skip, read from the agbot's status API as an operator would (docs/agbot.md "Status").
    const env = { HZN_AGBOT_URL: `http://127.0.0.1:${agbot.port()}` };
    await vi.waitFor(
      async () => {
        const status = JSON.parse((await hzn(['agbot', 'policy', 'list', ORG, 'p-serial'], { env })).stdout);
        expect(status).toMatchObject({ org: ORG, name: 'p-serial', matched: 1 });
        expect(status.skipped).toContainEqual(
          expect.objectContaining({ node: `${ORG}/n-serial-closed`, reason: JSON.parse(`"${reason}"`) }),
        );
      },
      { timeout: EVENT_MS, interval: 200 },
    );
  });

  it('serve-all (IBM/agbot of npm start): an org created after the start is served, and its policy finds its nodes', async () => {
    const root = { user: 'root/root', secret: server.rootPassword };
    const mt = await startServeAllAgbot(server.baseUrl, 'mt', captureLog);
    try {
      const LATE = 'agbot-rounds-late';
      await createOrg({ http: server.http, root }, LATE);
      const lateUser = await createUser({ http: server.http, root }, LATE, 'owner');
      const plain = JSON.stringify({ services: { hello: { image: 'busybox:latest' } } });
      const service = {
        label: 'late',
        url: 'late.svc',
        version: '1.0.0',
        arch: 'amd64',
        sharable: 'multiple',
        deployment: plain,
        deploymentSignature: signDeployment(plain, signer.privateKey),
      };
      expectStatus(
        await call(lateUser, 'POST', `/v1/orgs/${LATE}/services`, service),
        201,
        'POST late service',
      );
      const policy = {
        label: 'late',
        service: { name: 'late.svc', org: LATE, arch: 'amd64', serviceVersions: [{ version: '1.0.0' }] },
      };
      expectStatus(
        await call(lateUser, 'POST', `/v1/orgs/${LATE}/business/policies/late-policy`, policy),
        201,
        'POST late policy',
      );
      const node = new ScriptedNode(server.baseUrl, LATE, 'late-node');
      await node.register(lateUser, { properties: [] });
      const { message, agbotId } = await proposalOf(node);
      expect(agbotId).toBe('IBM/mt');
      expect(readProposal(message).terms.header.name).toBe(
        `Policy for ${LATE}/late-node merged with ${LATE}/late-policy`,
      );
      const served = await call(root, 'GET', '/v1/orgs/IBM/agbots/mt/businesspols');
      expect(served.body.businessPols[`${LATE}_*`]).toMatchObject({
        businessPolOrgid: LATE,
        businessPol: '*',
        nodeOrgid: LATE,
      });
    } finally {
      await mt.stop();
    }
  });
});
