/**
 * The fleet benchmark's second half (issue 24): for a node idle at default settings, the time from
 * adding a deployment policy (the POST `hzn exchange deployment addpolicy` makes) to the proposal
 * reaching the node (an agreement in the agent's GET /agreement) and, when a container engine is
 * reachable (DOCKER_HOST), to its container running. One run per idle node, each with a policy of
 * its own; the org's agbot (in this process, default settings, signals on) serves them.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Docker from 'dockerode';
import { createLogger, silentLogger } from '#lib/json-logger';
import { canonicalArch } from '#lib/protocol/arch';
import { deploymentString, signDeployment } from '#lib/protocol/deployment-signature';
import { createAgbot as createAgbotRecord } from '#test/support/identities';
import { createAgbot } from '../agbot/agbot.ts';
import { loadAgbotConfig } from '../agbot/config.ts';
import { LABELS } from '../agent/workloads/container-spec.ts';
import type { Credentials, Http } from '../test/support/http.ts';
import { createUser, expectStatus } from '../test/support/world.ts';
import { median } from './stats.ts';

export interface IdleNode {
  id: string;
  /** The agent's local API. */
  port: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

export async function measureProposalLatency(o: {
  http: Http;
  baseUrl: string;
  org: string;
  root: Credentials;
  nodes: IdleNode[];
  /** The image the service runs (built locally); only with an engine. */
  image: string;
  engine: Docker | undefined;
}): Promise<{ proposalMs: number[]; runningMs: number[] }> {
  const admin = await createUser({ http: o.http, root: o.root }, o.org, 'fleetadmin', { admin: true });
  const token = 'fleet-agbot-token-0123456789';
  await createAgbotRecord(o.org, 'agbot', admin.user, { token });
  const agbotCreds = { user: `${o.org}/agbot`, secret: token };
  const serve = { businessPolOrgid: o.org, businessPol: '*', nodeOrgid: o.org };
  expectStatus(
    await o.http('POST', `/v1/orgs/${o.org}/agbots/agbot/businesspols`, { auth: agbotCreds, body: serve }),
    201,
    'serve',
  );
  const signer = signingKeys();
  const deployment = deploymentString({
    services: { 'fleet-hello': { image: o.image, command: ['sh', '-c', 'while true; do sleep 5; done'] } },
  });
  const service = {
    label: 'fleet.hello',
    url: 'fleet.hello',
    version: '1.0.0',
    // The agent reports Go's names (amd64, arm64), as anax does.
    arch: process.arch === 'x64' ? 'amd64' : canonicalArch(process.arch),
    sharable: 'multiple',
    deployment,
    deploymentSignature: signDeployment(deployment, signer.privateKey),
  };
  expectStatus(
    await o.http('POST', `/v1/orgs/${o.org}/services`, { auth: admin, body: service }),
    201,
    'service',
  );
  for (const node of o.nodes) {
    const trusted = await fetch(`http://127.0.0.1:${node.port}/trust/signer.pem`, {
      method: 'PUT',
      body: signer.publicKey,
      headers: { 'content-type': 'text/plain' },
    });
    if (trusted.status !== 200) throw new Error(`PUT /trust → ${trusted.status}`);
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-fleet-agbot-'));
  const agbot = createAgbot({
    config: loadAgbotConfig({
      HZN_EXCHANGE_URL: `${o.baseUrl}/v1`,
      HZN_AGBOT_ID: `${o.org}/agbot`,
      HZN_AGBOT_TOKEN: token,
      HZN_AGBOT_DATA_DIR: dataDir,
      HZN_AGBOT_PORT: '0',
    }),
    // FLEET_DEBUG=1: the agbot's log on stderr.
    log: process.env.FLEET_DEBUG
      ? createLogger('debug', (line) => process.stderr.write(`${line}\n`))
      : silentLogger,
  });
  await agbot.start();
  const proposalMs: number[] = [];
  const runningMs: number[] = [];
  try {
    // The agbot's first rounds (its key, its first search of nothing) are over before measuring.
    await sleep(15_000);
    for (const node of o.nodes) {
      const started = performance.now();
      const policy = {
        label: `for ${node.id}`,
        service: { name: 'fleet.hello', org: o.org, arch: '*', serviceVersions: [{ version: '1.0.0' }] },
        constraints: [`node == ${node.id}`],
      };
      expectStatus(
        await o.http('POST', `/v1/orgs/${o.org}/business/policies/p-${node.id}`, {
          auth: admin,
          body: policy,
        }),
        201,
        'addpolicy',
      );
      const agreementId = await until(
        `the proposal at ${node.id}`,
        async () => {
          const res = await fetch(`http://127.0.0.1:${node.port}/agreement`);
          const body = (await res.json()) as { agreements: { active: { current_agreement_id: string }[] } };
          return body.agreements.active[0]?.current_agreement_id;
        },
        120_000,
      );
      proposalMs.push(performance.now() - started);
      if (o.engine) {
        const engine = o.engine;
        await until(
          `the container of ${node.id}`,
          async () => {
            const found = await engine.listContainers({
              filters: { label: [`${LABELS.agreementId}=${agreementId}`] },
            });
            return found[0]?.State === 'running' ? true : undefined;
          },
          120_000,
        );
        runningMs.push(performance.now() - started);
      }
      console.log(
        `  ${node.id}: proposal ${Math.round(proposalMs.at(-1) as number)} ms` +
          (o.engine ? `, running ${Math.round(runningMs.at(-1) as number)} ms` : ''),
      );
    }
  } finally {
    await agbot.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return { proposalMs, runningMs };
}

export const medianMs = (values: number[]) => (values.length > 0 ? Math.round(median(values)) : undefined);

/**
 * The key the service is signed with (pkcs1 PEM, as `hzn` signs). Made here: the e2e helper that
 * makes it imports vitest, which a benchmark run outside vitest cannot load.
 */
const signingKeys = () =>
  generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  });
