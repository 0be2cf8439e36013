import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePorts, type Launched, launch } from '#test/support/launcher';
import { reachableEngine } from '../../agent/test-support/engine.ts';
import { LABELS } from '../../agent/workloads/container-spec.ts';
import { freePort } from '../../scripts/local/ports.ts';
import {
  AGENT_EXECUTABLE,
  buildKit,
  HOST_ARCH,
  INSTALLER,
  KIT,
  type Ran,
  run,
} from './support/device-kit.ts';
import { buildVersionB, VERSION_B } from './support/device-kits.ts';
import { prebuiltFunctions, useTheRunsDynamoDb } from './support/prebuilt.ts';
import { brokenKit, installFromExchange, keyPairs, publishKit } from './support/upgrade-device.ts';

/**
 * Issue 35, on a device: the agent installed by agent-install.sh (`--prefix --no-systemd`, the
 * executable of `npm run build:bin`, version A) with hello-secret running, against `npm start`
 * and podman, upgraded over the air by node management policies made with the real `hzn`
 * (`exchange nmp add`, `nm manifest add`) and agent versions published with `npm run
 * publish-agent`. In order, on the one node: an NMP for a pattern the node does not use; a
 * manifest whose hash is wrong and one signed by a key the device did not pin, both refused
 * before anything is swapped; version B (a second build, `build:bin --version`), successful,
 * keeping the agent's process, its agreement and its container; version C, a build that exits at
 * start, rolled back by the watchdog to B; `hzn exchange nmp status` shows each outcome; the
 * untouched NMP has none; `--uninstall` still stops the agent the watchdog started.
 */
const docker = await reachableEngine();
const ORG = 'fleet';
const ROOT_PW = 'nmp-upgrade-root-pw';
const ADMIN = 'admin:nmp-upgrade-admin-pw';
const VERSION_C = '0.3.0';
const EXECUTABLE = `horizon-agent-linux-${HOST_ARCH}`;
let launched: Launched | undefined;
let work: string;
let exchange: string;
let installerUrl: string;
let prefix: string;
let agentPort: number;
/** Version B's kit: built once per run (device-kits.ts), in the background by the global setup. */
const kitB = inject('agentKitB');

const installed = (path: string) => join(prefix, path);
const agentBin = () => installed('usr/local/lib/horizon/horizon-agent');
const pidFile = () => installed('var/lib/horizon/agent.pid');
const agentPid = () => Number(readFileSync(pidFile(), 'utf8'));

async function hzn(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Ran> {
  const ran = await run(installed('usr/local/bin/hzn'), args, {
    env: {
      ...process.env,
      HZN_EXCHANGE_URL: exchange,
      HZN_ORG_ID: ORG,
      HZN_EXCHANGE_USER_AUTH: ADMIN,
      HORIZON_URL: `http://127.0.0.1:${agentPort}`,
      ...env,
    },
  });
  if (ran.status !== 0) throw new Error(`hzn ${args.join(' ')}:\n${ran.output}`);
  return ran;
}
const hznJson = async (args: string[]) => JSON.parse((await hzn(args)).stdout);
const json = (name: string, content: unknown) => {
  const path = join(work, name);
  writeFileSync(path, JSON.stringify(content));
  return path;
};

async function asRoot(method: string, path: string, body: unknown): Promise<void> {
  const answer = await fetch(`${exchange}/${path}`, {
    method,
    headers: {
      authorization: `Basic ${Buffer.from(`root/root:${ROOT_PW}`).toString('base64')}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  });
  if (!answer.ok) throw new Error(`${method} ${path}: ${answer.status} ${await answer.text()}`);
}

/** `hzn nm manifest add` of `manifest` as `id` in the org, signed with the key pair `signer` (keys/). */
const addManifest = (id: string, manifest: unknown, signer: string) =>
  hzn([
    ...['nm', 'manifest', 'add', '-t', 'agent_upgrade_manifests', '-i', id],
    ...['-f', json(`${id}-manifest.json`, manifest), '-k', join(work, 'keys', `${signer}.key`)],
  ]);

/** An NMP for the demo nodes (hello-secret's node policy), upgrading to `manifest` now. */
async function addNmp(name: string, manifest: string, scope: object = { constraints: ['purpose == demo'] }) {
  const nmp = {
    label: name,
    enabled: true,
    start: 'now',
    startWindow: 0,
    ...scope,
    agentUpgradePolicy: { manifest },
  };
  await hzn(['exchange', 'nmp', 'add', name, '-f', json(`${name}.json`, nmp)]);
}

/** The node's status of NMP `name` once it ends (a status other than the job's stages). */
async function outcome(name: string): Promise<{ status: string; errorMessage?: string }> {
  const stages = new Set(['waiting', 'download started', 'downloaded', 'initiated', 'rollback started']);
  let status: { status: string; errorMessage?: string } | undefined;
  await expect
    .poll(
      async () => {
        const all = await hznJson([
          'exchange',
          'node',
          'management',
          'status',
          'device-node',
          '-p',
          name,
          '-l',
        ]);
        status = all[`${ORG}/${name}`]?.agentUpgradePolicyStatus;
        return status?.status !== undefined && !stages.has(status.status);
      },
      { timeout: 240_000, interval: 500 },
    )
    .toBe(true);
  return status as { status: string; errorMessage?: string };
}

/** The containers of the node's hello-secret agreement (other files' containers share the engine). */
let agreementId = '';
const hello = async () =>
  (await docker?.listContainers({
    all: true,
    filters: { label: [`${LABELS.agreementId}=${agreementId}`] },
  })) ?? [];

/**
 * The org, its admin, hello-secret (signed with a key the node trusts), its policy and secret; then
 * the device, installed with the publisher's key (in `keys`) pinned and hello-secret running.
 */
async function setUpDevice(keys: string): Promise<void> {
  await asRoot('POST', `orgs/${ORG}`, { label: ORG, description: 'nmp-upgrade test' });
  await asRoot('POST', `orgs/${ORG}/users/admin`, {
    password: ADMIN.split(':')[1],
    admin: true,
    email: 'admin@example.com',
  });
  const image = await run('examples/hello-secret/build-image.sh', []);
  if (image.status !== 0) throw new Error(image.output);
  const kitHzn = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    run(join(KIT, `hzn-linux-${HOST_ARCH}`), args, {
      env: {
        ...process.env,
        HZN_EXCHANGE_URL: exchange,
        HZN_ORG_ID: ORG,
        HZN_EXCHANGE_USER_AUTH: ADMIN,
        ...env,
      },
    }).then((ran) => {
      if (ran.status !== 0) throw new Error(`hzn ${args.join(' ')}:\n${ran.output}`);
    });
  await kitHzn(['key', 'create', ORG, 'admin@example.com', '-k', `${keys}/svc.key`, '-K', `${keys}/svc.pem`]);
  await kitHzn(
    ['exchange', 'service', 'publish', '-f', 'examples/hello-secret/service.json', '-k', `${keys}/svc.key`],
    { ARCH: HOST_ARCH === 'arm64' ? 'arm64' : 'amd64' },
  );
  await kitHzn([
    'exchange',
    'deployment',
    'addpolicy',
    'hello-pol',
    '-f',
    'examples/hello-secret/deployment-policy.json',
  ]);
  await kitHzn(['secretsmanager', 'secret', 'add', 'greeting', '--secretKey', 'text', '-d', 'hi', '-O']);

  // The device: installed with the publisher's key pinned, hello-secret running.
  agentPort = await freePort();
  const cfg = {
    HZN_EXCHANGE_URL: exchange,
    HZN_ORG_ID: ORG,
    HZN_EXCHANGE_USER_AUTH: ADMIN,
    HZN_NODE_ID: 'device-node',
    HZN_NODE_POLICY: join(process.cwd(), 'examples/hello-secret/node-policy.json'),
    AGENT_TRUSTED_KEYS: join(keys, 'svc.pem'),
    AGENT_UPGRADE_KEYS: join(keys, 'publisher.pem'),
    HZN_AGENT_PORT: String(agentPort),
    HZN_AGENT_POLL_SECONDS: '1',
  };
  const ran = await installFromExchange(installerUrl, join(work, 'device'), cfg, [
    ...['-i', KIT, '--prefix', prefix, '--no-systemd', '-w', 'hello-secret', '-T', '180'],
  ]);
  if (ran.status !== 0) throw new Error(`agent-install.sh:\n${ran.output}`);
}

/** The stack's data (docs/testing.md): the run's DynamoDB Local, this file's table. */
const theRunsDynamoDb = useTheRunsDynamoDb();

beforeAll(async () => {
  if (!docker) return;
  work = mkdtempSync(join(tmpdir(), 'nmp-upgrade-'));
  prefix = join(work, 'root');
  const ports = await freePorts();
  exchange = `http://127.0.0.1:${ports.http}/v1`;
  launched = launch({
    ...prebuiltFunctions(),
    ...theRunsDynamoDb,
    EXCHANGE_DATA_DIR: join(work, 'stack'),
    EXCHANGE_PORT: String(ports.http),
    EXCHANGE_DYNAMODB_PORT: String(ports.dynamo),
    EXCHANGE_ROOT_PW: ROOT_PW,
    HZN_AGBOT_POLL_SECONDS: '1',
    HZN_AGBOT_PORT: String(await freePort()),
  });
  // The run's kit (version A) and version B, a second build of the same source that says so: built
  // once per run, started by the global setup while it built the functions (device-kits.ts), so
  // usually done by now. Version C: a build that exits at start (any file the manifest names and
  // hashes is an executable to the agent).
  const run = inject('exchangeBuildDir');
  const kitC = join(work, 'kit-c');
  await Promise.all([
    buildKit(run).then(() => buildVersionB(kitB, run)),
    launched.waitFor(/Press Ctrl-C to stop/, 240_000),
  ]);
  installerUrl = (await launched.waitFor(/Device installer: (\S+)/, 1000))[1] ?? '';
  brokenKit(VERSION_C, kitC);
  // The publisher's key (its public half pinned on the device) and a key nobody pinned.
  const keys = join(work, 'keys');
  keyPairs(keys, ['publisher', 'stranger']);
  // B and C are published while the device is set up, which installs A from the kit (-i) and reads
  // neither; one after the other, as each publish recounts IBM's AgentFileVersion.
  const publishing = (async () => {
    for (const kit of [kitB, kitC]) await publishKit(exchange, ROOT_PW, kit, join(keys, 'publisher.key'));
  })();
  // Both end before a failure is reported: afterAll must find the agent an install started.
  const done = await Promise.allSettled([publishing, setUpDevice(keys)]);
  for (const step of done) if (step.status === 'rejected') throw step.reason;
}, 900_000);

afterAll(async () => {
  // A failed step must not leave the agent running.
  if (prefix && existsSync(pidFile())) process.kill(agentPid(), 'SIGTERM');
  if (launched && launched.child.exitCode === null) {
    launched.child.kill('SIGINT');
    await launched.exited;
  }
  if (work) rmSync(work, { recursive: true, force: true });
});

describe.skipIf(!docker)('an installed agent upgraded over the air by node management policies', () => {
  let firstPid: number;
  let container: { Id: string; StartedAt: string };

  it('is installed at version A with the publisher key pinned and hello-secret running', async () => {
    expect(readFileSync(agentBin()).equals(readFileSync(AGENT_EXECUTABLE))).toBe(true);
    expect(readFileSync(installed('var/lib/horizon/upgrade-keys/publisher.pem'), 'utf8')).toBe(
      readFileSync(join(work, 'keys', 'publisher.pem'), 'utf8'),
    );
    expect((await hzn(['version'])).stdout).toBe(
      'Horizon CLI version: 0.1.0\nHorizon Agent version: 0.1.0\n',
    );
    firstPid = agentPid();
    const agreements = await hzn(['agreement', 'list']);
    agreementId = /"current_agreement_id": "([0-9a-f]{64})"/.exec(agreements.stdout)?.[1] ?? '';
    expect(agreementId, agreements.output).not.toBe('');
    const [running] = await hello();
    expect(running?.State).toBe('running');
    const inspected = await docker?.getContainer(running?.Id ?? '').inspect();
    container = { Id: running?.Id ?? '', StartedAt: inspected?.State.StartedAt ?? '' };
    // The NMP for a pattern this node does not use (it registered with a policy): added first, so
    // that every later outcome proves the agent read it and left it alone.
    await addNmp('not-mine', `IBM/agent-upgrade-${VERSION_B}`, { patterns: [`${ORG}/other`] });
  });

  it('refuses a manifest whose file hash is not the file, before anything is swapped', async () => {
    const manifest = {
      softwareUpgrade: { version: VERSION_B, files: [EXECUTABLE], sha256: { [EXECUTABLE]: '0'.repeat(64) } },
    };
    await addManifest('bad-hash', manifest, 'publisher');
    await addNmp('bad-hash', `${ORG}/bad-hash`);
    const ended = await outcome('bad-hash');
    expect(ended.status).toBe('failed');
    expect(ended.errorMessage).toMatch(/SHA-256/);
    expect(readFileSync(agentBin()).equals(readFileSync(AGENT_EXECUTABLE))).toBe(true);
    expect(existsSync(`${agentBin()}.previous`)).toBe(false);
    expect(agentPid()).toBe(firstPid);
  });

  it('refuses a manifest signed by a key the device did not pin', async () => {
    // B's true SHA-256: only the signature is wrong.
    const sha256 = createHash('sha256')
      .update(readFileSync(join(kitB, EXECUTABLE)))
      .digest('hex');
    const sums = {
      softwareUpgrade: { version: VERSION_B, files: [EXECUTABLE], sha256: { [EXECUTABLE]: sha256 } },
    };
    await addManifest('stranger', sums, 'stranger');
    await addNmp('stranger', `${ORG}/stranger`);
    const ended = await outcome('stranger');
    expect(ended.status).toBe('failed');
    expect(ended.errorMessage).toMatch(/sign/);
    expect(readFileSync(agentBin()).equals(readFileSync(AGENT_EXECUTABLE))).toBe(true);
    expect(agentPid()).toBe(firstPid);
  });

  it('upgrades to B: successful, the same process, agreement and container, B reported to the Exchange', async () => {
    await addNmp('to-b', `IBM/agent-upgrade-${VERSION_B}`);
    const ended = await outcome('to-b');
    expect(ended).toMatchObject({ status: 'successful' });
    expect(readFileSync(agentBin()).equals(readFileSync(join(kitB, EXECUTABLE)))).toBe(true);
    // Outside systemd the new build runs in the agent's own process (execve).
    expect(agentPid()).toBe(firstPid);
    expect((await hzn(['version'])).stdout).toBe(
      `Horizon CLI version: ${VERSION_B}\nHorizon Agent version: ${VERSION_B}\n`,
    );
    const node = await hznJson(['exchange', 'node', 'list', 'device-node']);
    expect(node[`${ORG}/device-node`].softwareVersions).toMatchObject({ horizon: VERSION_B });
    const [running] = await hello();
    const inspected = await docker?.getContainer(running?.Id ?? '').inspect();
    expect({ Id: running?.Id, StartedAt: inspected?.State.StartedAt }).toEqual(container);
    expect(running?.Labels[LABELS.agreementId]).toBe(agreementId);
  });

  it('rolls back C, a build that exits at start, to B and reports it', async () => {
    await addNmp('to-c', `IBM/agent-upgrade-${VERSION_C}`);
    const ended = await outcome('to-c');
    expect(ended.status).toBe('rollback successful');
    expect(readFileSync(agentBin()).equals(readFileSync(join(kitB, EXECUTABLE)))).toBe(true);
    expect((await hzn(['version'])).stdout).toContain(`Horizon Agent version: ${VERSION_B}`);
    // The previous build runs in the watchdog's process, which the installer's pid file names.
    expect(readFileSync(`/proc/${agentPid()}/cmdline`, 'utf8')).toContain('horizon-agent');
    const [running] = await hello();
    expect(running?.Id).toBe(container.Id);
    expect(running?.State).toBe('running');
  });

  it('hzn exchange nmp status shows each outcome; the NMP for another pattern reached no node', async () => {
    const statuses: Record<string, unknown> = {};
    for (const name of ['bad-hash', 'stranger', 'to-b', 'to-c'])
      Object.assign(statuses, { [name]: await hznJson(['exchange', 'nmp', 'status', name]) });
    expect(statuses).toEqual({
      'bad-hash': { [`${ORG}/device-node`]: 'failed' },
      stranger: { [`${ORG}/device-node`]: 'failed' },
      'to-b': { [`${ORG}/device-node`]: 'successful' },
      'to-c': { [`${ORG}/device-node`]: 'rollback successful' },
    });
    const mine = await hznJson(['exchange', 'node', 'management', 'status', 'device-node']);
    expect(Object.keys(mine).sort()).toEqual(
      ['bad-hash', 'stranger', 'to-b', 'to-c'].map((n) => `${ORG}/${n}`),
    );
  });

  it('--uninstall stops the agent the watchdog started and leaves nothing', async () => {
    const pid = agentPid();
    const ran = await run(INSTALLER, ['--prefix', prefix, '--no-systemd', '--uninstall'], {
      env: { ...process.env },
      cwd: work,
      timeoutMs: 120_000,
    });
    expect(ran.status, ran.output).toBe(0);
    expect(existsSync(`/proc/${pid}`)).toBe(false);
    expect(await hello()).toEqual([]);
  }, 180_000);
});
