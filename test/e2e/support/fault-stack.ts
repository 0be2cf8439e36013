import { type ChildProcess, spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deploymentString, signDeployment } from '#lib/protocol/deployment-signature';
import { EVENT_MS } from '#test/support/deadlines';
import { type Credentials, type Http, httpClient } from '#test/support/http';
import { HOST } from '../../../agent/test-support/harness.ts';
import { type AgbotStreamReader, startAgbotStream } from '../../../scripts/local/agbot-stream.ts';
import { type DynamoDbLocal, startDynamoDbLocal } from '../../../scripts/local/dynamodb-local.ts';
import { freePort } from '../../../scripts/local/ports.ts';
import { run } from './device-kit.ts';
import { type OfflineServer, startOffline } from './serverless-offline.ts';
import { eventually, must } from './system.ts';

/**
 * A whole system whose parts a fault test stops and starts again, each by its own pid: its own
 * DynamoDB Local (data on disk, so a restart keeps it; never the suite's shared one),
 * serverless-offline over it on fixed ports, the in-stack agbot fed by a stream reader, and real
 * agents (`dist/agent.mjs`) each running one container of an agreement from a deployment policy.
 */
export interface FaultStack {
  exchange: Http;
  root: Credentials;
  admin: Credentials;
  org: string;
  agents: FaultAgent[];
  stopDynamo(): Promise<void>;
  startDynamo(): Promise<void>;
  stopExchange(): Promise<void>;
  startExchange(): Promise<void>;
  /** Runs the in-stack agbot's round now, as its schedule would. */
  agbotRound(): Promise<void>;
  /** The in-stack agbot's stream reader (over this stack's DynamoDB Local). */
  agbotStream(): AgbotStreamReader | undefined;
  stop(): Promise<void>;
}

export interface FaultAgent {
  /** The node's id in the Exchange (org `FaultStack.org`). */
  id: string;
  token: string;
  http: Http;
  stop(): Promise<void>;
}

export interface FaultStackOptions {
  name: string;
  nodes: number;
  /** The container image each agreement runs (busyboxTestImage()). */
  image: string;
  /** `inject('exchangeBuildDir')`: the run's build of the functions. */
  prebuiltDir: string;
  /** More environment for each agent (its intervals, docs/agent.md). */
  agentEnv?: Record<string, string>;
}

const TABLE = 'exchange';
const ROOT_PW = 'faults-root-password';
const ORG = 'faults';

export async function startFaultStack(options: FaultStackOptions): Promise<FaultStack> {
  const dataDir = mkdtempSync(join(tmpdir(), `${options.name}-`));
  const dynamoDir = join(dataDir, 'dynamodb');
  mkdirSync(dynamoDir);
  const dynamoPort = await freePort();
  const endpoint = `http://127.0.0.1:${dynamoPort}`;
  let dynamo: DynamoDbLocal | undefined = await startDynamoDbLocal({ port: dynamoPort, dataDir: dynamoDir });
  const children: ChildProcess[] = [];
  let server: OfflineServer | undefined;
  let reader: AgbotStreamReader | undefined;
  const ports = { httpPort: await freePort(), lambdaPort: 0, websocketPort: 0 };
  const taken = new Set([dynamoPort, ports.httpPort]);
  for (const key of ['lambdaPort', 'websocketPort'] as const) {
    let port = await freePort();
    while (taken.has(port)) port = await freePort();
    taken.add(port);
    ports[key] = port;
  }
  const stop = async () => {
    await Promise.all(children.map((child) => stopChild(child)));
    await reader?.stop();
    await server?.stop();
    await dynamo?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    // The table, in a child: this worker's data layer is bound to the suite's DynamoDB Local.
    const made = await run(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        "const { createTableIfMissing } = await import('#tables/create-table'); await createTableIfMissing(process.env.EXCHANGE_TABLE);",
      ],
      { env: { ...process.env, DYNAMODB_ENDPOINT: endpoint, EXCHANGE_TABLE: TABLE, AWS_REGION: 'local' } },
    );
    if (made.status !== 0) throw new Error(`creating the table failed: ${made.output}`);
    const startExchange = async () => {
      server = await startOffline({
        dynamoEndpoint: endpoint,
        table: TABLE,
        rootPassword: ROOT_PW,
        prebuiltDir: options.prebuiltDir,
        ...ports,
        env: {
          EXCHANGE_AGBOT: 'in-stack',
          EXCHANGE_SECRETS_MASTER_KEY_FILE: join(dataDir, 'secrets-master-key'),
        },
      });
    };
    await startExchange();
    const baseUrl = `http://127.0.0.1:${ports.httpPort}`;
    const lambdaUrl = `http://127.0.0.1:${ports.lambdaPort}`;
    const exchange = httpClient(baseUrl);
    const root = { user: 'root/root', secret: ROOT_PW };
    await must(exchange, 'POST', '/v1/admin/initdb', root);
    reader = await startAgbotStream({
      dynamoEndpoint: endpoint,
      table: TABLE,
      lambdaUrl,
      log: () => undefined,
    });
    await must(exchange, 'POST', `/v1/orgs/${ORG}`, root, { label: ORG, description: 'faults' });
    await must(exchange, 'POST', `/v1/orgs/${ORG}/users/admin`, root, {
      password: 'faults-admin-pw',
      admin: true,
      email: 'admin@example.com',
    });
    const admin = { user: `${ORG}/admin`, secret: 'faults-admin-pw' };
    const signer = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    });
    const deployment = deploymentString({
      services: {
        'faults-main': { image: options.image, command: ['sh', '-c', 'while true; do sleep 5; done'] },
      },
    });
    await must(exchange, 'POST', `/v1/orgs/${ORG}/services`, admin, {
      label: 'faults',
      url: 'faults',
      version: '1.0.0',
      arch: HOST.arch,
      sharable: 'multiple',
      deployment,
      deploymentSignature: signDeployment(deployment, signer.privateKey),
    });
    await must(exchange, 'POST', `/v1/orgs/${ORG}/business/policies/faults`, admin, {
      label: 'faults',
      service: { name: 'faults', org: ORG, arch: '*', serviceVersions: [{ version: '1.0.0' }] },
      constraints: ['purpose == faults'],
    });
    const agents: FaultAgent[] = [];
    for (let i = 1; i <= options.nodes; i++) {
      const id = `fnode${i}`;
      const token = `${id}-token-0123456789`;
      await must(exchange, 'PUT', `/v1/orgs/${ORG}/nodes/${id}`, admin, {
        name: id,
        token,
        pattern: '',
        publicKey: '',
        arch: HOST.arch,
      });
      const port = await freePort();
      const child = spawn(process.execPath, ['dist/agent.mjs'], {
        env: {
          PATH: process.env.PATH,
          DOCKER_HOST: process.env.DOCKER_HOST,
          HZN_AGENT_PORT: String(port),
          HZN_AGENT_DATA_DIR: join(dataDir, `agent-${id}`),
          HZN_EXCHANGE_URL: `${baseUrl}/v1`,
          HZN_AGENT_POLL_SECONDS: '1',
          HZN_AGENT_CONTAINER_CHECK_SECONDS: '2',
          ...options.agentEnv,
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      children.push(child);
      const http = httpClient(`http://127.0.0.1:${port}`);
      await eventually('the agent', async () => (await http('GET', '/status')).status === 200, EVENT_MS);
      await must(http, 'POST', '/node', undefined, { id, organization: ORG, token, name: id });
      await must(http, 'POST', '/node/policy', undefined, {
        properties: [{ name: 'purpose', value: 'faults' }],
        constraints: [],
      });
      const trusted = await http('PUT', '/trust/signer.pem', {
        body: signer.publicKey,
        headers: { 'content-type': 'text/plain' },
      });
      if (trusted.status !== 200) throw new Error(`PUT /trust: ${trusted.status} ${trusted.text}`);
      await must(http, 'PUT', '/node/configstate', undefined, { state: 'configured' });
      agents.push({ id, token, http, stop: () => stopChild(child) });
    }
    return {
      exchange,
      root,
      admin,
      org: ORG,
      agents,
      async stopDynamo() {
        await dynamo?.stop();
        dynamo = undefined;
      },
      async startDynamo() {
        dynamo = await startDynamoDbLocal({ port: dynamoPort, dataDir: dynamoDir });
      },
      async stopExchange() {
        await server?.stop();
        server = undefined;
      },
      startExchange,
      async agbotRound() {
        const url = `${lambdaUrl}/2015-03-31/functions/open-exchange-dev-agbotRound/invocations`;
        const response = await fetch(url, { method: 'POST', body: '{}' });
        if (response.status !== 200)
          throw new Error(`agbotRound invocation: ${response.status} ${await response.text()}`);
      },
      agbotStream: () => reader,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}
