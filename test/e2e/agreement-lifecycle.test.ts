import { generateKeyPairSync } from 'node:crypto';
import type Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploymentString, signDeployment } from '#lib/protocol/deployment-signature';
import { REASON } from '#lib/protocol/reason-codes';
import type { Credentials } from '#test/support/http';
import { busyboxTestImage, reachableEngine } from '../../agent/test-support/engine.ts';
import { HOST } from '../../agent/test-support/harness.ts';
import { LABELS } from '../../agent/workloads/container-spec.ts';
import { prebuiltFunctions, useTheRunsDynamoDb } from './support/prebuilt.ts';
import { eventually, must, registerNode, type System, startSystem } from './support/system.ts';

/**
 * Agreements an operator can trust (issue 28), on real components: `npm start`, the built agent,
 * podman. A policy offers 2.0.0 (priority 1, one retry, its container exits at once) and 1.0.0
 * (priority 2): the node ends up running 1.0.0 and its events name the failed 2.0.0; 3.0.0 added
 * at priority 0 moves the node to it; a node whose agent stops loses its agreement after the
 * policy's `missing_heartbeat_interval` (208). Skipped, with one message, without an engine.
 */
const docker = await reachableEngine();
const ORG = 'fallback';
const NODE = 'fbnode';
const NODE_TOKEN = 'fallback-node-token';
const SERVICE = 'fb';
const CONTAINER = 'fb-main';
const WORKS = ['sh', '-c', 'while true; do sleep 5; done'];
const EXITS = ['sh', '-c', 'exit 3'];

const signer = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
});

interface AgentAgreement {
  current_agreement_id: string;
  workload_to_run: { url: string; version: string };
  terminated_reason?: number;
  terminated_description?: string;
}

describe.skipIf(!docker)('agreement lifecycle: version fallback, upgrade, node health', () => {
  let system: System;
  let admin: Credentials;
  let image: string;
  const engine = () => docker as Docker;
  const agreements = async (): Promise<{ active: AgentAgreement[]; archived: AgentAgreement[] }> =>
    (await system.agent('GET', '/agreement')).body.agreements;
  const runningVersion = async (version: string) => {
    const active = (await agreements()).active.find(
      (a) => a.workload_to_run.version === version && a.current_agreement_id,
    );
    if (!active) return undefined;
    const containers = await engine().listContainers({
      filters: { label: [`${LABELS.agreementId}=${active.current_agreement_id}`] },
    });
    return containers[0]?.State === 'running' ? active : undefined;
  };

  async function publishVersion(version: string, command: string[]) {
    const deployment = deploymentString({ services: { [CONTAINER]: { image, command } } });
    await must(system.exchange, 'POST', `/v1/orgs/${ORG}/services`, admin, {
      label: `${SERVICE} ${version}`,
      url: SERVICE,
      version,
      arch: HOST.arch,
      sharable: 'multiple',
      deployment,
      deploymentSignature: signDeployment(deployment, signer.privateKey),
    });
  }

  const policy = (serviceVersions: unknown[]) => ({
    label: 'fallback',
    service: {
      name: SERVICE,
      org: ORG,
      arch: '*',
      serviceVersions,
      // Protocol timers are the policy's settings: short ones keep the node-health case short.
      nodeHealth: { missing_heartbeat_interval: 10, check_agreement_status: 5 },
    },
    constraints: ['purpose == fallback'],
  });
  const V2 = { version: '2.0.0', priority: { priority_value: 1, retries: 1, retry_durations: 3600 } };
  const V1 = { version: '1.0.0', priority: { priority_value: 2, retries: 1, retry_durations: 3600 } };

  const theRunsDynamoDb = useTheRunsDynamoDb();

  beforeAll(async () => {
    image = await busyboxTestImage();
    system = await startSystem('agreement-lifecycle', 'lifecycle-root-pw', {
      ...prebuiltFunctions(),
      ...theRunsDynamoDb,
    });
    const { exchange, root } = system;
    await must(exchange, 'POST', `/v1/orgs/${ORG}`, root, { label: ORG, description: 'lifecycle' });
    await must(exchange, 'POST', `/v1/orgs/${ORG}/users/admin`, root, {
      password: 'admin-pw-lifecycle',
      admin: true,
      email: 'admin@example.com',
    });
    admin = { user: `${ORG}/admin`, secret: 'admin-pw-lifecycle' };
    await publishVersion('1.0.0', WORKS);
    await publishVersion('2.0.0', EXITS);
    await must(exchange, 'POST', `/v1/orgs/${ORG}/business/policies/fb-pol`, admin, policy([V2, V1]));
    await system.startAgent();
  }, 400_000);

  afterAll(async () => {
    await system?.stop();
    const ours = await engine()
      .listContainers({ all: true, filters: { label: [LABELS.agreementId] } })
      .catch(() => []);
    for (const container of ours.filter((c) => c.Labels[LABELS.serviceName] === CONTAINER))
      await engine()
        .getContainer(container.Id)
        .remove({ force: true })
        .catch(() => undefined);
  });

  it('a version whose workload fails is abandoned for the next by priority; the node runs 1.0.0', async () => {
    const { agent } = system;
    await registerNode(system, {
      org: ORG,
      id: NODE,
      token: NODE_TOKEN,
      admin,
      purpose: 'fallback',
      signerPem: signer.publicKey,
    });
    await eventually('1.0.0 running', () => runningVersion('1.0.0'), 240_000);
    const failed = (await agreements()).archived.filter((a) => a.workload_to_run.version === '2.0.0');
    // Each with its reason, so that a second attempt says why the first did not count.
    expect(failed.map((a) => `${a.terminated_reason} ${a.terminated_description}`)).toHaveLength(1);
    expect([REASON.serviceTerminated, REASON.serviceStartTimeout, REASON.imageLoadFailed]).toContain(
      failed[0]?.terminated_reason,
    );
    const events = (await agent('GET', '/eventlog')).body as {
      event_code: string;
      event_source?: { workload_to_run?: { version?: string } };
    }[];
    expect(
      events.some(
        (e) => e.event_source?.workload_to_run?.version === '2.0.0' && /error|cancel/.test(e.event_code),
      ),
    ).toBe(true);
  });

  it('a version added at a higher priority moves the node to it', async () => {
    await publishVersion('3.0.0', WORKS);
    const V3 = { version: '3.0.0', priority: { priority_value: 0 } };
    await must(
      system.exchange,
      'PUT',
      `/v1/orgs/${ORG}/business/policies/fb-pol`,
      admin,
      policy([V3, V2, V1]),
    );
    await eventually('3.0.0 running', () => runningVersion('3.0.0'), 180_000);
    const left = (await agreements()).archived.filter((a) => a.workload_to_run.version === '1.0.0');
    expect(left.map((a) => a.terminated_reason)).toEqual([REASON.agbotPolicyChanged]);
  }, 240_000);

  it('a node whose agent stops loses its agreement after missing_heartbeat_interval (208)', async () => {
    const running = await eventually('3.0.0 running', () => runningVersion('3.0.0'));
    const id = running.current_agreement_id;
    const stoppedAt = Date.now();
    await system.stopAgent();
    // Only a scheduled round checks node health when nothing changes: the test runs the schedule.
    await eventually(
      "the agbot's agreement gone",
      async () => {
        await system.agbotRound();
        const row = await system.exchange('GET', `/v1/orgs/IBM/agbots/agbot/agreements/${id}`, {
          auth: system.root,
        });
        return row.status === 404;
      },
      150_000,
    );
    // Not before the interval: the node was healthy until it stopped.
    expect(Date.now() - stoppedAt).toBeGreaterThanOrEqual(8_000);
    await system.startAgent();
    const ended = await eventually('the cancel read by the node', async () =>
      (await agreements()).archived.find((a) => a.current_agreement_id === id && a.terminated_reason),
    );
    expect(ended.terminated_reason).toBe(REASON.agbotNodeHeartbeatStopped);
  }, 240_000);
});
