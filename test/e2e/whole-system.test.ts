import { generateKeyPairSync } from 'node:crypto';
import type Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploymentString, signDeployment } from '#lib/protocol/deployment-signature';
import { getOrg } from '#tables/org/records';
import type { Credentials, Http } from '#test/support/http';
import { busyboxTestImage, reachableEngine } from '../../agent/test-support/engine.ts';
import { HOST } from '../../agent/test-support/harness.ts';
import { LABELS } from '../../agent/workloads/container-spec.ts';
import { prebuiltFunctions, useTheRunsDynamoDb } from './support/prebuilt.ts';
import { eventually, must, registerNode, type System, startSystem } from './support/system.ts';

/**
 * The whole system on real components (issue 14): `npm start` (DynamoDB Local, the Exchange on
 * serverless-offline and its agbot), the built `dist/agent.mjs` and podman. A user publishes a
 * signed service and a deployment policy binding a secret; the node registers with a matching
 * policy; the service runs with its secret at /platform-secrets; the secret changes in place; an
 * agreement cancelled on the node comes back; an agent restart adopts the workload; a badly
 * signed service never starts; an incompatible node policy ends the agreement; DELETE /node
 * leaves nothing on the engine; a node registered with a deployment pattern runs the pattern's
 * service once its user input is complete. Skipped, with one message, without a container engine.
 */
const docker = await reachableEngine();
const ORG = 'whole';
const ROOT_PW = 'whole-system-root-pw';
const NODE = 'node1';
const NODE_TOKEN = 'whole-node-token';
const SECRET_VALUE = 'first value';

const signer = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
});

let system: System;
let exchange: Http;
let agent: Http;
let admin: Credentials;
let root: Credentials;
const engine = () => docker as Docker;
const startAgent = () => system.startAgent();
const stopAgent = () => system.stopAgent();

/** A signed service whose one container prints its secret; `badSignature` signs something else. */
async function publishService(
  url: string,
  image: string,
  options: { badSignature?: boolean; userInput?: { name: string; type: string }[] } = {},
) {
  const deployment = deploymentString({
    services: {
      'whole-hello': {
        image,
        command: ['sh', '-c', 'while true; do cat /platform-secrets/app_secret; sleep 2; done'],
        secrets: { app_secret: { description: 'printed' } },
      },
    },
  });
  const signature = signDeployment(options.badSignature ? `${deployment} ` : deployment, signer.privateKey);
  await must(exchange, 'POST', `/v1/orgs/${ORG}/services`, admin, {
    label: url,
    url,
    version: '1.0.0',
    arch: HOST.arch,
    sharable: 'multiple',
    deployment,
    deploymentSignature: signature,
    ...(options.userInput ? { userInput: options.userInput } : {}),
  });
}

/** The service and a deployment policy for nodes whose purpose is demo, binding its secret. */
async function publish(url: string, image: string, options: { badSignature?: boolean } = {}) {
  await publishService(url, image, options);
  await must(exchange, 'POST', `/v1/orgs/${ORG}/business/policies/${url}-pol`, admin, {
    label: url,
    service: { name: url, org: ORG, arch: '*', serviceVersions: [{ version: '1.0.0' }] },
    constraints: ['purpose == demo'],
    secretBinding: [{ serviceOrgid: ORG, serviceUrl: url, secrets: [{ app_secret: 'greeting' }] }],
  });
}

const activeAgreements = async (): Promise<
  { current_agreement_id: string; workload_to_run: { url: string } }[]
> => (await agent('GET', '/agreement')).body.agreements.active;
const agreementFor = async (url: string) =>
  (await activeAgreements()).find((a) => a.workload_to_run.url === url && a.current_agreement_id);
const containersFor = (agreementId: string) =>
  engine().listContainers({ all: true, filters: { label: [`${LABELS.agreementId}=${agreementId}`] } });
/** This test's workload containers (other test files may run containers on the same engine at once). */
const allWorkloadContainers = async () =>
  (await engine().listContainers({ all: true, filters: { label: [LABELS.agreementId] } })).filter(
    (c) => c.Labels[LABELS.serviceName] === 'whole-hello',
  );

async function secretInside(containerId: string): Promise<string> {
  const exec = await engine()
    .getContainer(containerId)
    .exec({ Cmd: ['cat', '/platform-secrets/app_secret'], AttachStdout: true, AttachStderr: true });
  const stream = await exec.start({});
  const chunks: Buffer[] = [];
  await new Promise<void>((resolve, reject) => {
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', resolve);
    stream.on('error', reject);
  });
  // The multiplexed stream's 8-byte frame headers are binary; the JSON value is what we want.
  return Buffer.concat(chunks).toString('utf8');
}

describe.skipIf(!docker)('the whole system: npm start, dist/agent.mjs, podman', () => {
  let image: string;
  let firstAgreement: string;
  let firstContainer: Docker.ContainerInfo;

  const theRunsDynamoDb = useTheRunsDynamoDb();

  beforeAll(async () => {
    image = await busyboxTestImage();
    system = await startSystem('whole-system', ROOT_PW, { ...prebuiltFunctions(), ...theRunsDynamoDb });
    ({ exchange, agent, root } = system);
    await must(exchange, 'POST', `/v1/orgs/${ORG}`, root, { label: ORG, description: 'whole system' });
    await must(exchange, 'POST', `/v1/orgs/${ORG}/users/admin`, root, {
      password: 'admin-pw-whole',
      admin: true,
      email: 'admin@example.com',
    });
    admin = { user: `${ORG}/admin`, secret: 'admin-pw-whole' };
    await must(exchange, 'PUT', `/v1/orgs/${ORG}/secrets/greeting`, admin, {
      key: 'text',
      value: SECRET_VALUE,
    });
    await publish('hello', image);
    await startAgent();
  }, 400_000);

  afterAll(async () => {
    await stopAgent();
    for (const container of (await allWorkloadContainers().catch(() => [])) ?? [])
      await engine()
        .getContainer(container.Id)
        .remove({ force: true })
        .catch(() => undefined);
    await system?.stop();
  });

  it('keeps its data in the DynamoDB it was given (EXCHANGE_DYNAMODB_ENDPOINT): this file’s table', async () => {
    // This process reads the run's DynamoDB Local and this file's table (test/setup-env.ts): the
    // org created through npm start's Exchange is there, not in a DynamoDB Local of npm start's own.
    expect((await getOrg(ORG))?.label).toBe(ORG);
  });

  it('registers the node; an agreement forms on both sides and the container runs with its secret', async () => {
    const registeredAt = Date.now();
    await registerNode(system, {
      org: ORG,
      id: NODE,
      token: NODE_TOKEN,
      admin,
      purpose: 'demo',
      signerPem: signer.publicKey,
    });
    const agreement = await eventually('an agreement', () => agreementFor('hello'));
    firstAgreement = agreement.current_agreement_id;
    const [container] = await eventually('a running container', async () => {
      const found = await containersFor(firstAgreement);
      return found.length === 1 && found[0]?.State === 'running' ? found : undefined;
    });
    firstContainer = container as Docker.ContainerInfo;
    console.log(`configured → container running: ${((Date.now() - registeredAt) / 1000).toFixed(1)} s`);
    expect(firstContainer.Names).toEqual([`/${firstAgreement}-whole-hello`]);
    expect(firstContainer.Labels).toMatchObject({
      [LABELS.agreementId]: firstAgreement,
      [LABELS.serviceName]: 'whole-hello',
    });
    const inspected = await engine().getContainer(firstContainer.Id).inspect();
    expect(inspected.Config.Env).toEqual(
      expect.arrayContaining([`HZN_ORGANIZATION=${ORG}`, `HZN_DEVICE_ID=${NODE}`]),
    );
    expect(await secretInside(firstContainer.Id)).toContain(SECRET_VALUE);
    // Both sides hold the agreement: the node's in the Exchange, the agbot's too.
    const nodeAgreements = await must(exchange, 'GET', `/v1/orgs/${ORG}/nodes/${NODE}/agreements`, admin);
    expect(Object.keys(nodeAgreements.body.agreements)).toContain(firstAgreement);
    const agbotAgreement = await exchange('GET', `/v1/orgs/IBM/agbots/agbot/agreements/${firstAgreement}`, {
      auth: root,
    });
    expect(agbotAgreement.status).toBe(200);
  }, 180_000);

  it('changes the secret file in place: same container, same start time', async () => {
    await must(exchange, 'PUT', `/v1/orgs/${ORG}/secrets/greeting`, admin, {
      key: 'text',
      value: 'second value',
    });
    await eventually('the new value in the file', async () =>
      (await secretInside(firstContainer.Id)).includes('second value'),
    );
    const [after] = await containersFor(firstAgreement);
    expect(after?.Id).toBe(firstContainer.Id);
    const inspected = await engine().getContainer(firstContainer.Id).inspect();
    expect(inspected.State.Running).toBe(true);
    expect(inspected.RestartCount).toBe(0);
  });

  it('adopts the running workload after an agent restart instead of starting another', async () => {
    const before = await engine().getContainer(firstContainer.Id).inspect();
    await stopAgent();
    await startAgent();
    // The protocol worker is `initialized` after its first whole round: the one that would start
    // the workload again if the running container were not adopted.
    await eventually(
      'the first protocol round',
      async () =>
        (await agent('GET', '/status/workers')).body.workers?.AgreementProtocol?.status === 'initialized',
    );
    const containers = await allWorkloadContainers();
    expect(containers.map((c) => c.Id)).toEqual([firstContainer.Id]);
    const after = await engine().getContainer(firstContainer.Id).inspect();
    expect(after.State.StartedAt).toBe(before.State.StartedAt);
  });

  it('never starts a badly signed service', async () => {
    await publish('badly-signed', image, { badSignature: true });
    await eventually('the refusal in the event log', async () => {
      const events = (await agent('GET', '/eventlog')).body as { message: string }[];
      return events.some((e) => /signature/i.test(e.message)) || undefined;
    });
    expect((await allWorkloadContainers()).map((c) => c.Id)).toEqual([firstContainer.Id]);
    expect(await agreementFor('badly-signed')).toBeUndefined();
  });

  it('DELETE /agreement removes the container; the agbot forms a new agreement and it comes back', async () => {
    expect((await agent('DELETE', `/agreement/${firstAgreement}`)).status).toBeLessThan(300);
    await eventually(
      'the old container gone',
      async () => (await containersFor(firstAgreement)).length === 0,
    );
    const next = await eventually('a new agreement', async () => {
      const found = await agreementFor('hello');
      return found && found.current_agreement_id !== firstAgreement ? found : undefined;
    });
    await eventually('its container running', async () => {
      const found = await containersFor(next.current_agreement_id);
      return found[0]?.State === 'running' || undefined;
    });
  }, 180_000);

  it('an incompatible node policy ends the agreement and removes the containers', async () => {
    await must(agent, 'POST', '/node/policy', undefined, {
      properties: [{ name: 'purpose', value: 'something else' }],
      constraints: [],
    });
    await eventually('no active agreement', async () =>
      (await activeAgreements()).length === 0 ? true : undefined,
    );
    await eventually('no workload containers', async () =>
      (await allWorkloadContainers()).length === 0 ? true : undefined,
    );
  }, 180_000);

  it('DELETE /node leaves nothing on the engine', async () => {
    await must(agent, 'POST', '/node/policy', undefined, {
      properties: [{ name: 'purpose', value: 'demo' }],
      constraints: [],
    });
    await eventually('the workload back', async () =>
      (await allWorkloadContainers()).length > 0 ? true : undefined,
    );
    const listed = (await agent('GET', '/agreement')).body.agreements;
    const ours = new Set(
      [...listed.active, ...listed.archived].map(
        (a: { current_agreement_id: string }) => a.current_agreement_id,
      ),
    );
    expect((await agent('DELETE', '/node')).status).toBeLessThan(300);
    await eventually('no workload containers', async () =>
      (await allWorkloadContainers()).length === 0 ? true : undefined,
    );
    // Nor networks of its agreements (other test files may have theirs on the same engine).
    const networks = await engine().listNetworks();
    expect(networks.filter((n) => [...ours].some((id) => n.Name.includes(id)))).toEqual([]);
  }, 180_000);

  it('a node with a deployment pattern is configured once its user input is complete and runs the pattern service', async () => {
    await publishService('hello-pat', image, { userInput: [{ name: 'GREETING', type: 'string' }] });
    await must(exchange, 'POST', `/v1/orgs/${ORG}/patterns/pat`, admin, {
      label: 'pattern',
      services: [
        {
          serviceUrl: 'hello-pat',
          serviceOrgid: ORG,
          serviceArch: HOST.arch,
          serviceVersions: [{ version: '1.0.0' }],
        },
      ],
      secretBinding: [{ serviceOrgid: ORG, serviceUrl: 'hello-pat', secrets: [{ app_secret: 'greeting' }] }],
    });
    await must(exchange, 'PUT', `/v1/orgs/${ORG}/nodes/node2`, admin, {
      name: 'node2',
      token: NODE_TOKEN,
      pattern: `${ORG}/pat`,
      publicKey: '',
      arch: HOST.arch,
    });
    // The agent may still be finishing the previous unregistration (it restarts itself after one).
    await eventually('the node registered', async () => {
      const registered = await agent('POST', '/node', {
        body: { id: 'node2', organization: ORG, token: NODE_TOKEN, name: 'node2' },
      });
      return registered.status < 300 || undefined;
    });
    const refused = await agent('PUT', '/node/configstate', { body: { state: 'configured' } });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      error: `service ${ORG}/hello-pat version 1.0.0: no user input found for the service.`,
      input: 'configstate.state',
    });
    await must(agent, 'POST', '/node/userinput', undefined, [
      {
        serviceOrgid: ORG,
        serviceUrl: 'hello-pat',
        serviceVersionRange: '[0.0.0,INFINITY)',
        inputs: [{ name: 'GREETING', value: 'from the node' }],
      },
    ]);
    await must(agent, 'PUT', '/node/configstate', undefined, { state: 'configured' });
    const agreement = await eventually('a pattern agreement', () => agreementFor('hello-pat'));
    const [container] = await eventually('its container running', async () => {
      const found = await containersFor(agreement.current_agreement_id);
      return found[0]?.State === 'running' ? found : undefined;
    });
    const inspected = await engine()
      .getContainer((container as Docker.ContainerInfo).Id)
      .inspect();
    expect(inspected.Config.Env).toEqual(
      expect.arrayContaining([`HZN_PATTERN=${ORG}/pat`, 'GREETING=from the node', 'HZN_DEVICE_ID=node2']),
    );
    expect(await secretInside((container as Docker.ContainerInfo).Id)).toContain('second value');
    const agbotAgreement = await must(
      exchange,
      'GET',
      `/v1/orgs/IBM/agbots/agbot/agreements/${agreement.current_agreement_id}`,
      root,
    );
    expect(Object.values(agbotAgreement.body.agreements)[0]).toMatchObject({
      service: { orgid: ORG, pattern: 'pat', url: 'hello-pat' },
      state: 'Finalized Agreement',
    });
    expect((await agent('DELETE', '/node')).status).toBeLessThan(300);
    await eventually('no workload containers', async () =>
      (await allWorkloadContainers()).length === 0 ? true : undefined,
    );
  }, 240_000);
});
