import { generateKeyPairSync } from 'node:crypto';
import type Docker from 'dockerode';
import { deploymentString, signDeployment } from '#lib/protocol/deployment-signature';
import type { Credentials } from '#test/support/http';
import { busyboxTestImage } from '../../../agent/test-support/engine.ts';
import { HOST } from '../../../agent/test-support/harness.ts';
import { LABELS } from '../../../agent/workloads/container-spec.ts';
import { eventually, must, type NodeAgent, registerNode, type System } from './system.ts';

/**
 * Real agents under one deployment policy with a rollout plan (docs/rollouts.md), on a running
 * system (`startSystem`): for test/e2e/rollout-agents.test.ts and bench/rollout.ts. The service
 * is one busybox container; a version's `command` decides whether it runs or exits at once.
 */
export const ROLLOUT_SERVICE = 'roll-web';
export const RUNS = 'while true; do sleep 5; done';
export const EXITS_AT_ONCE = 'echo broken; exit 3';

export interface RolloutAgents {
  org: string;
  admin: Credentials;
  nodes: string[];
  agents: Map<string, NodeAgent>;
  publishVersion(version: string, command: string): Promise<void>;
  /** The policy offers `versions`, best first (creates it the first time). */
  offer(versions: string[]): Promise<void>;
  setPlan(plan: unknown): Promise<void>;
  /** The version each node's status in the Exchange shows running (every container running). */
  runningVersions(): Promise<Record<string, string | undefined>>;
  everyNodeOn(version: string): Promise<boolean>;
  /** The agbot's status of the policy's rollout. */
  rollout(): Promise<RolloutStatus | undefined>;
  /** Waits for `done`, running the agbot's scheduled round between looks (its minute, sooner). */
  rounds<T>(what: string, done: () => Promise<T | undefined | false>): Promise<T>;
  /** Every version a node ever accepted, from its agent's own record (active and archived). */
  accepted(node: string): Promise<string[]>;
  /** When a node first accepted `version` (its agent's agreement_creation_time, seconds). */
  acceptedAt(node: string, version: string): Promise<number | undefined>;
}

export interface RolloutStatus {
  target: string;
  state: string;
  counts: Record<string, number>;
  failures: Record<string, number>;
}

/**
 * An org with an admin, one agent per name in `nodes` registered with `purpose == rollout` (and
 * `ring == canary` for the names in `canaries`), trusting the signer of the versions published.
 */
export async function startRolloutAgents(
  system: System,
  options: { org: string; nodes: string[]; canaries: string[] },
): Promise<RolloutAgents> {
  const { org, nodes } = options;
  const { exchange } = system;
  const signer = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  });
  await must(exchange, 'POST', `/v1/orgs/${org}`, system.root, { label: org, description: 'rollouts' });
  const admin = { user: `${org}/admin`, secret: `admin-pw-${org}` };
  await must(exchange, 'POST', `/v1/orgs/${org}/users/admin`, system.root, {
    password: admin.secret,
    admin: true,
    email: 'admin@example.com',
  });
  const policyPath = `/v1/orgs/${org}/business/policies/${ROLLOUT_SERVICE}`;
  const agents = new Map<string, NodeAgent>();
  for (const id of nodes) {
    const agent = await system.startNodeAgent(id);
    agents.set(id, agent);
    await registerNode(system, {
      org,
      id,
      token: `${id}-token`,
      admin,
      purpose: 'rollout',
      signerPem: signer.publicKey,
      agent: agent.http,
      properties: options.canaries.includes(id) ? [{ name: 'ring', value: 'canary' }] : [],
    });
  }

  const runningVersions = async () => {
    const versions: Record<string, string | undefined> = {};
    for (const id of nodes) {
      const status = await exchange('GET', `/v1/orgs/${org}/nodes/${id}/status`, { auth: admin });
      const service = (
        status.body?.services as
          | { serviceUrl: string; version: string; containerStatus: { state: string }[] }[]
          | undefined
      )?.find((s) => s.serviceUrl === ROLLOUT_SERVICE);
      const running =
        service !== undefined &&
        service.containerStatus.length > 0 &&
        service.containerStatus.every((c) => c.state === 'running');
      versions[id] = running ? service.version : undefined;
    }
    return versions;
  };
  const rollout = async () =>
    (await must(exchange, 'GET', `${policyPath}/rollout/status`, admin)).body.statuses?.[0] as
      | RolloutStatus
      | undefined;

  const agreementsOf = async (node: string) => {
    const agent = agents.get(node);
    if (!agent) throw new Error(`no agent ${node}`);
    const { active, archived } = (await must(agent.http, 'GET', '/agreement', undefined)).body
      .agreements as Record<
      'active' | 'archived',
      { agreement_creation_time: number; workload_to_run: { version: string } }[]
    >;
    return [...active, ...archived];
  };

  return {
    org,
    admin,
    nodes,
    agents,
    async publishVersion(version, command) {
      const deployment = deploymentString({
        services: { [ROLLOUT_SERVICE]: { image: await busyboxTestImage(), command: ['sh', '-c', command] } },
      });
      await must(exchange, 'POST', `/v1/orgs/${org}/services`, admin, {
        label: ROLLOUT_SERVICE,
        url: ROLLOUT_SERVICE,
        version,
        arch: HOST.arch,
        sharable: 'multiple',
        deployment,
        deploymentSignature: signDeployment(deployment, signer.privateKey),
      });
    },
    async offer(versions) {
      const policy = {
        label: ROLLOUT_SERVICE,
        service: {
          name: ROLLOUT_SERVICE,
          org,
          arch: '*',
          serviceVersions: versions.map((version, i) => ({ version, priority: { priority_value: i + 1 } })),
        },
        constraints: ['purpose == rollout'],
      };
      const put = await exchange('PUT', policyPath, { auth: admin, body: policy });
      if (put.status === 404) await must(exchange, 'POST', policyPath, admin, policy);
      else if (put.status !== 201) throw new Error(`PUT ${policyPath}: ${put.status} ${put.text}`);
    },
    async setPlan(plan) {
      await must(exchange, 'PUT', `${policyPath}/rollout`, admin, plan);
    },
    runningVersions,
    async everyNodeOn(version) {
      return Object.values(await runningVersions()).every((v) => v === version);
    },
    rollout,
    rounds(what, done) {
      return eventually(
        what,
        async () => {
          const value = await done();
          if (value !== undefined && value !== false) return value;
          await system.agbotRound();
          return undefined;
        },
        300_000,
      );
    },
    async accepted(node) {
      return (await agreementsOf(node)).map((a) => a.workload_to_run.version);
    },
    async acceptedAt(node, version) {
      const times = (await agreementsOf(node))
        .filter((a) => a.workload_to_run.version === version)
        .map((a) => a.agreement_creation_time);
      return times.length > 0 ? Math.min(...times) : undefined;
    },
  };
}

/** Removes the rollout service's containers from the engine (agents leave workloads running when they stop). */
export async function removeRolloutContainers(engine: Docker): Promise<void> {
  const containers = await engine
    .listContainers({ all: true, filters: { label: [`${LABELS.serviceName}=${ROLLOUT_SERVICE}`] } })
    .catch(() => []);
  for (const container of containers)
    await engine
      .getContainer(container.Id)
      .remove({ force: true })
      .catch(() => undefined);
}
