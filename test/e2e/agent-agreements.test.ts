import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '#lib/json-logger';
import { newAgreementId } from '#lib/protocol/agreement-id';
import {
  buildCancel,
  buildProposal,
  buildReplyAck,
  buildSecretUpdate,
  serializeMessage,
} from '#lib/protocol/build-message';
import { signDeployment } from '#lib/protocol/deployment-signature';
import { open } from '#lib/protocol/envelope-open';
import { seal } from '#lib/protocol/envelope-seal';
import { exchangePublicKey, generateMessagingKeys, parseExchangePublicKey } from '#lib/protocol/keys';
import type { ProtocolMessage } from '#lib/protocol/messages';
import { parseMessage } from '#lib/protocol/parse-message';
import { consumerPolicy } from '#lib/protocol/policy-compatibility';
import { nodePolicyName } from '#lib/protocol/policy-document';
import { encodeSecretValue } from '#lib/protocol/secret-binding';
import { buildTerms } from '#lib/protocol/terms';
import { EVENT_MS } from '#test/support/deadlines';
import type { Credentials } from '#test/support/http';
import { createAgbot } from '#test/support/identities';
import { createOrg, createUser, expectStatus, freshId } from '#test/support/world';
import { type Agent, createAgent } from '../../agent/agent.ts';
import { busyboxTestImage, reachableEngine } from '../../agent/test-support/engine.ts';
import { HOST, testConfig } from '../../agent/test-support/harness.ts';
import { protocolRoundsLater } from '../../agent/test-support/rounds.ts';
import { containersOf, removeWorkload } from '../../agent/workloads/engine.ts';
import { useSharedOffline } from './support/shared-offline.ts';

/**
 * The node side of the agreement protocol against the real Exchange (serverless-offline over
 * DynamoDB Local), the real agent in-process and the container engine (podman): a scripted agbot
 * in this file publishes its key, proposes with lib/protocol, reads the node's reply from its
 * own mailbox, acks, updates a secret and cancels. Skipped, with one message, without an engine.
 */
const docker = await reachableEngine();
const server = useSharedOffline();
const ORG = freshId('agreements-e2e');
const NODE_ID = 'node1';
const NODE_TOKEN = 'node1-agreement-token';
const AGBOT = 'agbot1';
const SERVICE = { url: 'hello.secret', org: ORG, version: '1.0.0', arch: HOST.arch };
const nodeFull = `${ORG}/${NODE_ID}`;
const nodePath = `/v1/orgs/${ORG}/nodes/${NODE_ID}`;
const agbotPath = `/v1/orgs/${ORG}/agbots/${AGBOT}`;

const signer = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
});
const agbotKeys = generateMessagingKeys();
let root: Credentials;
let user: Credentials;
let agbot: Credentials;
let agent: Agent;
let dataDir: string;
let image: string;
const started: string[] = [];

/** The agent under test (again over the same data dir after a restart). */
async function startAgent(governanceMs = 120_000): Promise<Agent> {
  const created = await createAgent({
    config: testConfig(`${server.baseUrl}/v1`, dataDir, { pollIntervalMs: 300 }),
    log: silentLogger,
    host: HOST,
    // The replyack path is what most tests drive; a short governance interval would race it.
    protocolTimings: { governanceMs, containerCheckMs: 1_000, messagesFallbackMs: 5_000 },
  });
  await created.start();
  return created;
}

const engine = () => docker as Docker;
const agentCall = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) => {
  const res = await agent.app.inject({
    method,
    url,
    ...(payload === undefined
      ? {}
      : typeof payload === 'string'
        ? { payload, headers: { 'content-type': 'text/plain' } }
        : { payload: payload as object }),
  });
  return { status: res.statusCode, body: res.body ? res.json() : undefined };
};

describe.skipIf(!docker)('agreements on the node: real Exchange, real agent, podman', () => {
  beforeAll(async () => {
    image = await busyboxTestImage();
    root = { user: 'root/root', secret: server.rootPassword };
    await createOrg({ http: server.http, root }, ORG);
    user = await createUser({ http: server.http, root }, ORG, 'owner');
    const body = { name: NODE_ID, token: NODE_TOKEN, pattern: '', publicKey: '', arch: HOST.arch };
    expectStatus(await server.http('PUT', nodePath, { auth: user, body }), 201, `PUT ${nodePath}`);
    agbot = await createAgbot(ORG, AGBOT, user.user, { token: 'agbot1-token-e2e' });
    const key = { publicKey: exchangePublicKey(agbotKeys.publicKey) };
    expectStatus(await server.http('PATCH', agbotPath, { auth: agbot, body: key }), 200, 'PATCH agbot');

    dataDir = mkdtempSync(join(tmpdir(), 'agent-agreements-'));
    agent = await startAgent();
    const register = { id: NODE_ID, organization: ORG, token: NODE_TOKEN, name: NODE_ID };
    expect((await agentCall('POST', '/node', register)).status).toBe(201);
    const policy = { properties: [{ name: 'purpose', value: 'demo' }], constraints: [] };
    expect((await agentCall('POST', '/node/policy', policy)).status).toBe(201);
    expect((await agentCall('PUT', '/trust/signer.pem', signer.publicKey)).status).toBe(200);
    expect((await agentCall('PUT', '/node/configstate', { state: 'configured' })).status).toBe(201);
  }, 240_000);

  afterAll(async () => {
    await agent?.stop();
    for (const id of started) await removeWorkload(engine(), id).catch(() => undefined);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const nodeKey = async (): Promise<string> => {
    const res = await server.http('GET', nodePath, { auth: user });
    return res.body.nodes[nodeFull].publicKey as string;
  };

  /** The agbot's side: seal for the node's published key, post to its mailbox. */
  const toNode = async (message: ProtocolMessage) => {
    const sealed = seal(
      serializeMessage(message),
      agbotKeys.privateKey,
      parseExchangePublicKey(await nodeKey()),
    );
    const res = await server.http('POST', `${nodePath}/msgs`, {
      auth: agbot,
      body: { message: sealed, ttl: 300 },
    });
    expectStatus(res, 201, 'POST node msgs');
  };

  /**
   * Waits for the agbot's next message, opens it (signer = the node's published key), deletes it.
   * The protocol is at least once (a node whose delete of a handled message failed handles it
   * again), so a message identical to one already taken is skipped, not returned.
   */
  const taken = new Set<string>();
  const fromNode = async (signerKey?: string): Promise<ProtocolMessage> => {
    for (;;) {
      let found: { msgId: number; nodePubKey: string; message: string } | undefined;
      await vi.waitFor(
        async () => {
          const res = await server.http('GET', `${agbotPath}/msgs`, { auth: agbot });
          found = res.body?.messages?.[0];
          expect(found).toBeDefined();
        },
        { timeout: EVENT_MS, interval: 200 },
      );
      const message = found as { msgId: number; nodePubKey: string; message: string };
      expect(message.nodePubKey).toBe(signerKey ?? (await nodeKey()));
      await server.http('DELETE', `${agbotPath}/msgs/${message.msgId}`, { auth: agbot });
      const text = open(message.message, agbotKeys.privateKey, message.nodePubKey).message;
      if (taken.has(text)) continue;
      taken.add(text);
      return parseMessage(text);
    }
  };

  /** What waits in the node's mailbox (the node deletes each message once it has handled it). */
  const nodeMailbox = async (): Promise<unknown[]> =>
    (await server.http('GET', `${nodePath}/msgs`, { auth: user })).body?.messages ?? [];

  /** Nothing from the node in the agbot's mailbox, several protocol rounds later. */
  const noMessageFromNode = async () => {
    await protocolRoundsLater(agent, 3);
    const res = await server.http('GET', `${agbotPath}/msgs`, { auth: agbot });
    expect(res.body?.messages ?? []).toEqual([]);
  };

  const deployment = JSON.stringify({
    services: {
      hello: {
        image: '__IMAGE__',
        command: ['sleep', '600'],
        secrets: { token: { description: 'api token' } },
      },
    },
  });

  const proposal = (
    value: string,
    options: {
      constraints?: string[];
      signature?: string;
      policyName?: string;
      noSecretValue?: boolean;
      privileged?: boolean;
    } = {},
  ) => {
    const parsed = JSON.parse(deployment.replace('__IMAGE__', image));
    if (options.privileged) parsed.services.hello.privileged = true;
    const dep = JSON.stringify(parsed);
    const consumer = consumerPolicy(
      { constraints: options.constraints ?? ['purpose == demo'] },
      undefined,
      SERVICE,
      false,
    );
    const binding = { serviceOrgid: ORG, serviceUrl: SERVICE.url, enableNodeLevelSecrets: false };
    const terms = buildTerms({
      producerPolicyName: nodePolicyName(nodeFull),
      consumerPolicyName: `${ORG}/${options.policyName ?? 'hello-policy'}`,
      workload: {
        ...SERVICE,
        deployment: dep,
        deploymentSignature: options.signature ?? signDeployment(dep, signer.privateKey),
      },
      ...consumer,
      secretBinding: [{ ...binding, secrets: [{ token: 'mysecret' }] }],
      secretDetails: options.noSecretValue
        ? [{ ...binding, secrets: [{ other: encodeSecretValue({ key: 'user', value }) }] }]
        : [{ ...binding, secrets: [{ token: encodeSecretValue({ key: 'user', value }) }] }],
    });
    const producerPolicy = {
      header: { name: nodePolicyName(nodeFull), version: '2.0' },
      properties: [{ name: 'purpose', value: 'demo' }],
    };
    const agreementId = newAgreementId();
    return {
      agreementId,
      message: buildProposal({ agreementId, terms, producerPolicy, consumerId: `${ORG}/${AGBOT}` }),
    };
  };

  const runningContainer = async (agreementId: string) => {
    let info: Docker.ContainerInfo | undefined;
    await vi.waitFor(
      async () => {
        [info] = await containersOf(engine(), agreementId);
        expect(info?.State).toBe('running');
      },
      { timeout: EVENT_MS, interval: 250 },
    );
    return info as Docker.ContainerInfo;
  };

  const readInContainer = async (id: string, path: string): Promise<string> => {
    const exec = await engine()
      .getContainer(id)
      .exec({ Cmd: ['cat', path], AttachStdout: true, AttachStderr: true, Tty: true });
    const stream = await exec.start({ hijack: true, stdin: false, Tty: true });
    const chunks: Buffer[] = [];
    await new Promise<void>((resolve, reject) => {
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', resolve);
      stream.on('error', reject);
    });
    return Buffer.concat(chunks).toString('utf8').trim();
  };

  const nodeAgreement = async (agreementId: string) => {
    const res = await server.http('GET', `${nodePath}/agreements/${agreementId}`, { auth: user });
    return res.status === 200 ? res.body.agreements[agreementId] : undefined;
  };

  const agreementsView = async () => (await agentCall('GET', '/agreement')).body.agreements;
  const eventCodes = async (agreementId: string): Promise<string[]> =>
    (await agentCall('GET', `/eventlog?agreement_id=${agreementId}`)).body.map(
      (e: { event_code: string }) => e.event_code,
    );

  it('publishes the node key (PATCH publicKey) and keeps the private key 0600 in the data dir', async () => {
    await vi.waitFor(async () => expect(await nodeKey()).not.toBe(''), { timeout: EVENT_MS, interval: 200 });
    const { statSync } = await import('node:fs');
    expect(statSync(join(dataDir, 'privateMessagingKey.pem')).mode & 0o777).toBe(0o600);
  });

  it('proposal → reply → replyack: node agreement finalized, container running with the secret file; update; agbot cancel removes it', async () => {
    const { agreementId, message } = proposal('first-value');
    started.push(agreementId);
    await toNode(message);
    const reply = await fromNode();
    expect(reply).toMatchObject({ type: 'reply', agreementId, decision: true, deviceId: nodeFull });

    await toNode(buildReplyAck(agreementId, true));
    const container = await runningContainer(agreementId);
    expect(container.Names[0]).toBe(`/${agreementId}-hello`);
    expect(container.Labels['openhorizon.anax.agreement_id']).toBe(agreementId);
    expect(JSON.parse(await readInContainer(container.Id, '/platform-secrets/token'))).toEqual({
      key: 'user',
      value: 'first-value',
    });
    await vi.waitFor(
      async () => expect((await nodeAgreement(agreementId))?.state).toBe('Finalized Agreement'),
      {
        timeout: EVENT_MS,
      },
    );
    expect((await nodeAgreement(agreementId)).agrService.url).toBe(`${ORG}/${SERVICE.url}`);

    const view = await agreementsView();
    const active = view.active.find(
      (a: { current_agreement_id: string }) => a.current_agreement_id === agreementId,
    );
    expect(active).toMatchObject({ consumer_id: `${ORG}/${AGBOT}`, workload_to_run: SERVICE });
    expect(active.agreement_accepted_time).toBeGreaterThan(0);
    await vi.waitFor(
      async () =>
        expect((await agreementsView()).active[0].agreement_execution_start_time).toBeGreaterThan(0),
      { timeout: EVENT_MS, interval: 200 },
    );
    const viewText = JSON.stringify(await agreementsView());
    expect(viewText).not.toContain(encodeSecretValue({ key: 'user', value: 'first-value' }));
    expect(viewText).not.toContain('first-value');
    expect(await eventCodes(agreementId)).toEqual(
      expect.arrayContaining(['received_proposal', 'agreement_reached', 'image_loaded', 'container_running']),
    );

    // Secret update: the file changes in place, the container keeps running.
    const binding = { serviceOrgid: ORG, serviceUrl: SERVICE.url, enableNodeLevelSecrets: false };
    await toNode(
      buildSecretUpdate(agreementId, [
        { ...binding, secrets: [{ token: encodeSecretValue({ key: 'user', value: 'second-value' }) }] },
      ]),
    );
    expect(await fromNode()).toMatchObject({ type: 'basicagreementupdatereply', accepted: true });
    expect(JSON.parse(await readInContainer(container.Id, '/platform-secrets/token')).value).toBe(
      'second-value',
    );
    const [same] = await containersOf(engine(), agreementId);
    expect(same?.Id).toBe(container.Id);
    expect(same?.State).toBe('running');
    const allEvents = JSON.stringify((await agentCall('GET', '/eventlog/all')).body);
    expect(allEvents).not.toContain('second-value');

    // GET /service: the definition from the proposal, the instance with its containers from the engine.
    const services = (await agentCall('GET', '/service')).body;
    const instance = services.instances.active.find(
      (i: { instance_id: string }) => i.instance_id === agreementId,
    );
    expect(instance).toMatchObject({
      ref_url: SERVICE.url,
      organization: ORG,
      version: SERVICE.version,
      archived: false,
      associated_agreements: [agreementId],
      microservicedef_id: agreementId,
    });
    expect(instance.execution_start_time).toBeGreaterThan(0);
    expect(instance.containers).toHaveLength(1);
    expect(instance.containers[0]).toMatchObject({
      Id: container.Id,
      State: 'running',
      Names: [`/${agreementId}-hello`],
      Labels: expect.objectContaining({ 'openhorizon.anax.agreement_id': agreementId }),
    });
    expect(instance.containers[0].Mounts.map((m: { Destination: string }) => m.Destination)).toEqual(
      expect.arrayContaining(['/platform-secrets', '/open-horizon-secrets']),
    );
    const definition = services.definitions.active.find(
      (d: { record_id: string }) => d.record_id === agreementId,
    );
    expect(definition).toMatchObject({ specRef: SERVICE.url, organization: ORG, archived: false });
    expect(JSON.parse(definition.deployment).services.hello.image).toBe(image);
    expect(definition.deployment_signature).not.toBe('');
    const servicesText = JSON.stringify(services);
    for (const value of ['first-value', 'second-value'])
      for (const form of [value, encodeSecretValue({ key: 'user', value })])
        expect(servicesText).not.toContain(form);

    // The agbot cancels (204): containers, secret files and the Exchange row go; archived locally.
    await toNode(buildCancel(agreementId, 204));
    await vi.waitFor(async () => expect(await containersOf(engine(), agreementId)).toEqual([]), {
      timeout: EVENT_MS,
      interval: 250,
    });
    await vi.waitFor(() => expect(existsSync(join(dataDir, 'secrets', agreementId))).toBe(false), {
      timeout: EVENT_MS,
      interval: 200,
    });
    await vi.waitFor(async () => expect(await nodeAgreement(agreementId)).toBeUndefined(), {
      timeout: EVENT_MS,
    });
    await vi.waitFor(
      async () => {
        const archived = (await agreementsView()).archived.find(
          (a: { current_agreement_id: string }) => a.current_agreement_id === agreementId,
        );
        expect(archived).toMatchObject({ archived: true, terminated_reason: 204 });
      },
      { timeout: EVENT_MS, interval: 200 },
    );
    expect(await eventCodes(agreementId)).toEqual(
      expect.arrayContaining([
        'received_cancel_agreement_message',
        'agreement_canceled',
        'container_stopped',
      ]),
    );
  });

  it('DELETE /agreement (105): the container goes and the agbot gets a cancel with reason 105', async () => {
    const { agreementId, message } = proposal('v', { policyName: 'second' });
    started.push(agreementId);
    await toNode(message);
    expect(await fromNode()).toMatchObject({ type: 'reply', decision: true });
    const acked = Date.now();
    await toNode(buildReplyAck(agreementId, true));
    await runningContainer(agreementId);
    const running = Date.now();
    expect((await agentCall('DELETE', `/agreement/${agreementId}`)).status).toBe(200);
    await vi.waitFor(async () => expect(await containersOf(engine(), agreementId)).toEqual([]), {
      timeout: EVENT_MS,
      interval: 50,
    });
    console.info(
      `replyack → container running: ${running - acked} ms; DELETE → containers gone: ${Date.now() - running} ms`,
    );
    expect(await fromNode()).toMatchObject({ type: 'cancel', agreementId, reason: 105 });
    await vi.waitFor(async () => expect(await containersOf(engine(), agreementId)).toEqual([]), {
      timeout: EVENT_MS,
    });
    await vi.waitFor(async () => expect(await nodeAgreement(agreementId)).toBeUndefined(), {
      timeout: EVENT_MS,
    });
    await vi.waitFor(() => expect(existsSync(join(dataDir, 'secrets', agreementId))).toBe(false), {
      timeout: EVENT_MS,
      interval: 200,
    });
  });

  it('a node policy change the agreement no longer matches cancels it (101): containers, node agreement gone, event', async () => {
    const { agreementId, message } = proposal('p', { policyName: 'policy-change' });
    started.push(agreementId);
    await toNode(message);
    expect(await fromNode()).toMatchObject({ type: 'reply', decision: true });
    await toNode(buildReplyAck(agreementId, true));
    const container = await runningContainer(agreementId);
    await vi.waitFor(
      async () => expect((await nodeAgreement(agreementId))?.state).toBe('Finalized Agreement'),
      { timeout: EVENT_MS },
    );
    const setPolicy = async (purpose: string, extra: { name: string; value: string }[] = []) =>
      expect(
        (
          await agentCall('PUT', '/node/policy', {
            properties: [{ name: 'purpose', value: purpose }, ...extra],
            constraints: [],
          })
        ).status,
      ).toBe(201);
    // A change the T&C do not care about keeps the agreement.
    await setPolicy('demo', [{ name: 'colour', value: 'blue' }]);
    await protocolRoundsLater(agent, 2);
    expect((await containersOf(engine(), agreementId))[0]?.Id).toBe(container.Id);

    await setPolicy('other');
    await vi.waitFor(async () => expect(await containersOf(engine(), agreementId)).toEqual([]), {
      timeout: EVENT_MS,
      interval: 100,
    });
    expect(await fromNode()).toMatchObject({ type: 'cancel', agreementId, reason: 101 });
    await vi.waitFor(async () => expect(await nodeAgreement(agreementId)).toBeUndefined(), {
      timeout: EVENT_MS,
    });
    await vi.waitFor(
      async () => {
        const archived = (await agreementsView()).archived.find(
          (a: { current_agreement_id: string }) => a.current_agreement_id === agreementId,
        );
        expect(archived).toMatchObject({
          archived: true,
          terminated_reason: 101,
          terminated_description: 'node policy changed',
        });
      },
      { timeout: EVENT_MS, interval: 200 },
    );
    expect(await eventCodes(agreementId)).toEqual(
      expect.arrayContaining(['cancel_agreement', 'agreement_canceled', 'container_stopped']),
    );
    const archivedInstance = (await agentCall('GET', '/service')).body.instances.archived.find(
      (i: { instance_id: string }) => i.instance_id === agreementId,
    );
    expect(archivedInstance).toMatchObject({ archived: true, containers: [] });
    await setPolicy('demo');
  });

  it('an incompatible proposal is answered decision:false; a bad signature gets no reply and never runs', async () => {
    const incompatible = proposal('x', { constraints: ['purpose == other'], policyName: 'other' });
    await toNode(incompatible.message);
    expect(await fromNode()).toMatchObject({ agreementId: incompatible.agreementId, decision: false });
    const unsecret = proposal('x', { noSecretValue: true, policyName: 'no-secret' });
    await toNode(unsecret.message);
    expect(await fromNode()).toMatchObject({ agreementId: unsecret.agreementId, decision: false });
    const privileged = proposal('x', { privileged: true, policyName: 'privileged' });
    await toNode(privileged.message);
    expect(await fromNode()).toMatchObject({ agreementId: privileged.agreementId, decision: false });
    const messages = JSON.stringify((await agentCall('GET', '/eventlog')).body);
    expect(messages).toContain('no value was sent for secret token');

    const bad = proposal('x', {
      signature: signDeployment('{"services":{}}', signer.privateKey),
      policyName: 'bad',
    });
    started.push(bad.agreementId);
    await toNode(bad.message);
    await vi.waitFor(
      async () => expect(await eventCodes(bad.agreementId)).toContain('error_processing_proposal'),
      {
        timeout: EVENT_MS,
      },
    );
    await noMessageFromNode();
    expect(await containersOf(engine(), bad.agreementId)).toEqual([]);
    expect((await agreementsView()).active).toEqual([]);
  });
  it('an agent restart adopts the running workload: same container, no second one', async () => {
    const { agreementId, message } = proposal('kept', { policyName: 'restart' });
    started.push(agreementId);
    await toNode(message);
    expect(await fromNode()).toMatchObject({ type: 'reply', decision: true });
    await toNode(buildReplyAck(agreementId, true));
    const before = await runningContainer(agreementId);
    await vi.waitFor(
      async () =>
        expect((await agreementsView()).active[0]?.agreement_execution_start_time).toBeGreaterThan(0),
      { timeout: EVENT_MS, interval: 200 },
    );
    // A second replyack (an agbot that handled the reply twice, or one later than the governance
    // pass that finalized without it) restarts nothing: the same container keeps running.
    await toNode(buildReplyAck(agreementId, true));
    // The event: the node took it from its mailbox (the project's poll bound only ends a failure).
    await expect.poll(nodeMailbox, { interval: 200 }).toEqual([]);
    await protocolRoundsLater(agent, 2, 1);
    expect((await containersOf(engine(), agreementId)).map((c) => [c.Id, c.State])).toEqual([
      [before.Id, 'running'],
    ]);
    await agent.stop();
    agent = await startAgent();
    // Several rounds and container checks later, the workload is the same one.
    await protocolRoundsLater(agent, 3, 2);
    const after = await containersOf(engine(), agreementId);
    expect(after.map((c) => [c.Id, c.State])).toEqual([[before.Id, 'running']]);
    expect(
      (await agreementsView()).active.map((a: { current_agreement_id: string }) => a.current_agreement_id),
    ).toEqual([agreementId]);
  });

  it('without a replyack the node verifies with the agbot and finalizes anyway (governance pass)', async () => {
    await agent.stop();
    agent = await startAgent(500);
    const { agreementId, message } = proposal('governed', { policyName: 'governed' });
    started.push(agreementId);
    await toNode(message);
    expect(await fromNode()).toMatchObject({ type: 'reply', agreementId, decision: true });
    expect(await fromNode()).toMatchObject({ type: 'basicagreementverification', agreementId });
    await runningContainer(agreementId);
    await vi.waitFor(
      async () => expect((await nodeAgreement(agreementId))?.state).toBe('Finalized Agreement'),
      {
        timeout: EVENT_MS,
      },
    );
  });

  it('DELETE /node ends the agreements with 116 (the agbot is told), clears publicKey and leaves nothing', async () => {
    const ids: string[] = (await agreementsView()).active.map(
      (a: { current_agreement_id: string }) => a.current_agreement_id,
    );
    expect(ids).toHaveLength(2);
    const key = await nodeKey();
    expect((await agentCall('DELETE', '/node')).status).toBe(204);
    const cancels = [await fromNode(key), await fromNode(key)];
    expect(cancels.map((c) => [c.type, c.agreementId, (c as { reason?: number }).reason]).sort()).toEqual(
      ids.map((id) => ['cancel', id, 116]).sort(),
    );
    for (const id of ids) {
      expect(await containersOf(engine(), id)).toEqual([]);
      expect(existsSync(join(dataDir, 'secrets', id))).toBe(false);
      expect(await nodeAgreement(id)).toBeUndefined();
    }
    expect(await nodeKey()).toBe('');
  });
});
