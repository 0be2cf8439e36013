import { spawn, spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import {
  chmodSync,
  createReadStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
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
  HZN_EXECUTABLE,
  INSTALLER,
  KIT,
  type Ran,
  run,
} from './support/device-kit.ts';
import { prebuiltFunctions, useTheRunsDynamoDb } from './support/prebuilt.ts';

/**
 * Issue 27: `agent-install.sh` as the Exchange of `npm start` serves it (GET /v1/agent-install.sh,
 * piped into sh or downloaded) with the executables of the kit `npm run build:bin` makes, run as on
 * a device but with `--prefix <dir> --no-systemd` (no root), against `npm start` (Exchange +
 * agbot) and podman. The
 * hello-secret catalog is published with the `hzn` executable; the installer installs, starts the
 * agent from the installed executable, registers with a policy and waits (-w) until the container
 * runs; a second run upgrades keeping the agreement; --uninstall leaves nothing behind. Each
 * failure gives one line and its exit code. Skipped without a container engine.
 */
const docker = await reachableEngine();
const ROOT_PW = 'agent-install-root-pw';
const ADMIN = 'admin:agent-install-admin-pw';
let launched: Launched | undefined;
let work: string;
let exchange: string;
/** The installer's address, as npm start's banner prints it. */
let installerUrl: string;
/** A loopback web server holding the kit (`-i <url>`): `<kitUrl>/horizon-agent-linux-<arch>`. */
let kitServer: Server | undefined;
let kitUrl: string;

async function hzn(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Ran> {
  const ran = await run(HZN_EXECUTABLE, args, {
    env: {
      ...process.env,
      HZN_EXCHANGE_URL: exchange,
      HZN_ORG_ID: 'device',
      HZN_EXCHANGE_USER_AUTH: ADMIN,
      ...env,
    },
  });
  if (ran.status !== 0) throw new Error(`hzn ${args.join(' ')}:\n${ran.output}`);
  return ran;
}

const asAdmin = { authorization: `Basic ${Buffer.from(`device/${ADMIN}`).toString('base64')}` };

async function asRoot(method: string, path: string, body: unknown): Promise<void> {
  await fetch(`${exchange}/${path}`, {
    method,
    headers: {
      authorization: `Basic ${Buffer.from(`root/root:${ROOT_PW}`).toString('base64')}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  });
}

/** The stack's data (docs/testing.md): the run's DynamoDB Local, this file's table. */
const theRunsDynamoDb = useTheRunsDynamoDb();

beforeAll(async () => {
  if (!docker) return;
  work = mkdtempSync(join(tmpdir(), 'agent-install-'));
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
  await Promise.all([
    buildKit(inject('exchangeBuildDir')),
    launched.waitFor(/Press Ctrl-C to stop/, 240_000),
  ]);
  installerUrl = (await launched.waitFor(/Device installer: (\S+)/, 1000))[1] ?? '';
  kitServer = createServer((request, response) => {
    const name = /^\/kit\/(horizon-agent-linux-(?:x64|arm64))$/.exec(request.url ?? '')?.[1];
    if (!name) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'application/octet-stream' });
    createReadStream(join(KIT, name)).pipe(response);
  });
  await new Promise<void>((resolve) => kitServer?.listen(0, '127.0.0.1', resolve));
  const address = kitServer.address();
  kitUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/kit`;
  // The org, its admin, a signing key the node will trust, the signed service, the deployment
  // policy and the secret it binds: what examples/hello-secret/run.sh publishes.
  await asRoot('POST', 'orgs/device', { label: 'device', description: 'agent-install test' });
  await asRoot('POST', 'orgs/device/users/admin', {
    password: ADMIN.split(':')[1],
    admin: true,
    email: 'admin@example.com',
  });
  const built = await run('examples/hello-secret/build-image.sh', []);
  if (built.status !== 0) throw new Error(built.stderr);
  const keys = join(work, 'keys');
  await hzn([
    'key',
    'create',
    'device',
    'admin@example.com',
    '-k',
    `${keys}/svc.key`,
    '-K',
    `${keys}/svc.pem`,
  ]);
  await hzn(
    ['exchange', 'service', 'publish', '-f', 'examples/hello-secret/service.json'].concat([
      '-k',
      `${keys}/svc.key`,
      '-K',
      `${keys}/svc.pem`,
      '-O',
    ]),
    { ARCH: process.arch === 'arm64' ? 'arm64' : 'amd64' },
  );
  await hzn([
    'exchange',
    'deployment',
    'addpolicy',
    'hello-pol',
    '-f',
    'examples/hello-secret/deployment-policy.json',
  ]);
  await hzn(['secretsmanager', 'secret', 'add', 'greeting', '--secretKey', 'text', '-d', 'hi', '-O']);
}, 600_000);

afterAll(async () => {
  kitServer?.close();
  if (launched && launched.child.exitCode === null) {
    launched.child.kill('SIGINT');
    await launched.exited;
  }
  if (work) rmSync(work, { recursive: true, force: true });
});

/**
 * The config file a user writes, and the installer as a device gets it from the Exchange: piped
 * into sh (`curl -sSf <url> | sh -s -- <args>`), or downloaded and run.
 */
async function installer(
  args: string[],
  cfg: Record<string, string>,
  env: NodeJS.ProcessEnv = {},
  how: 'piped' | 'downloaded' = 'piped',
) {
  const device = join(work, 'device');
  mkdirSync(device, { recursive: true });
  writeFileSync(
    join(device, 'agent-install.cfg'),
    Object.entries(cfg)
      .map(([key, value]) => `${key}=${value}\n`)
      .join(''),
  );
  const options = { cwd: device, env: { ...process.env, ...env }, timeoutMs: 300_000 };
  if (how === 'piped')
    return run('sh', ['-c', 'curl -sSf "$0" | sh -s -- "$@"', installerUrl, ...args], options);
  const downloaded = join(device, 'agent-install.sh');
  const got = await run('curl', ['-sSf', '-o', downloaded, installerUrl]);
  if (got.status !== 0) throw new Error(`curl ${installerUrl}: ${got.output}`);
  // What the Exchange serves is the kit's installer, byte for byte.
  expect(readFileSync(downloaded).equals(readFileSync(INSTALLER))).toBe(true);
  chmodSync(downloaded, 0o755);
  return run(downloaded, args, options);
}

const filesUnder = (dir: string): string[] =>
  existsSync(dir) ? readdirSync(dir, { recursive: true, encoding: 'utf8' }) : [];

describe.skipIf(!docker)('agent-install.sh with --prefix --no-systemd against npm start', () => {
  let prefix: string;
  let cfg: Record<string, string>;
  let agentPort: number;
  let agreementId: string;
  let containerId: string;
  let firstPid: number;

  beforeAll(async () => {
    prefix = join(work, 'root');
    agentPort = await freePort();
    cfg = {
      HZN_EXCHANGE_URL: exchange,
      HZN_ORG_ID: 'device',
      HZN_EXCHANGE_USER_AUTH: ADMIN,
      HZN_NODE_ID: 'device-node',
      HZN_NODE_POLICY: join(process.cwd(), 'examples/hello-secret/node-policy.json'),
      AGENT_TRUSTED_KEYS: join(work, 'keys', 'svc.pem'),
      HZN_AGENT_PORT: String(agentPort),
      HZN_AGENT_POLL_SECONDS: '1',
    };
  });

  afterAll(() => {
    // A failed step must not leave the agent running (its containers go with the engine's run).
    const pidFile = installed('var/lib/horizon/agent.pid');
    if (existsSync(pidFile)) spawnSync('kill', [readFileSync(pidFile, 'utf8').trim()]);
  });

  const installed = (path: string) => join(prefix, path);
  const agentPid = () => Number(readFileSync(installed('var/lib/horizon/agent.pid'), 'utf8'));
  const ours = async () =>
    (await docker?.listContainers({
      all: true,
      filters: { label: [`${LABELS.agreementId}=${agreementId}`] },
    })) ?? [];

  it.each([
    [
      'an unsupported architecture',
      { arch: 'riscv64' },
      3,
      /^agent-install\.sh: unsupported architecture riscv64: /,
    ],
    [
      'no container engine',
      { DOCKER_HOST: 'unix:///nowhere/docker.sock' },
      4,
      /no container engine answers at \/nowhere/,
    ],
    [
      'an unreachable Exchange',
      { exchange: 'http://127.0.0.1:9/v1' },
      5,
      /cannot reach the Exchange at http:\/\/127\.0\.0\.1:9\/v1/,
    ],
    [
      'bad credentials',
      { auth: 'admin:wrong' },
      6,
      /the Exchange refused HZN_EXCHANGE_USER_AUTH for org device/,
    ],
    [
      'a private key given as the upgrade key',
      { upgradeKey: 'private' },
      2,
      /the upgrade key \S+ is not a PEM public key \(AGENT_UPGRADE_KEYS\): give the publisher's public key, never its private key/,
    ],
    [
      'an -i address without the executable',
      { input: '/nothing-here' },
      2,
      /cannot download http:\/\/127\.0\.0\.1:\d+\/nothing-here\/horizon-agent-linux-\w+ \(.*404\): check -i/,
    ],
  ] as const)(
    'with %s: one line, its exit code, nothing installed',
    async (_, fault, code, line) => {
      const env: NodeJS.ProcessEnv = {};
      if ('arch' in fault) {
        // A `uname` reporting another machine, first on PATH.
        const shim = join(work, 'shim');
        mkdirSync(shim, { recursive: true });
        writeFileSync(
          join(shim, 'uname'),
          `#!/bin/sh\n[ "$1" = -m ] && echo ${fault.arch} || exec /bin/uname "$@"\n`,
        );
        chmodSync(join(shim, 'uname'), 0o755);
        env.PATH = `${shim}:${process.env.PATH}`;
      }
      if ('DOCKER_HOST' in fault) env.DOCKER_HOST = fault.DOCKER_HOST;
      const faulty: Record<string, string> = {
        ...cfg,
        ...('exchange' in fault ? { HZN_EXCHANGE_URL: fault.exchange } : {}),
        ...('auth' in fault ? { HZN_EXCHANGE_USER_AUTH: fault.auth } : {}),
      };
      if ('upgradeKey' in fault) {
        const key = join(work, 'publisher.key');
        writeFileSync(
          key,
          generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
            type: 'pkcs8',
            format: 'pem',
          }),
        );
        faulty.AGENT_UPGRADE_KEYS = key;
      }
      // The downloaded executable's temporary file goes too.
      env.TMPDIR = join(work, 'tmp');
      mkdirSync(env.TMPDIR, { recursive: true });
      const input = 'input' in fault ? new URL(kitUrl).origin + fault.input : KIT;
      const ran = await installer(['-i', input, '--prefix', prefix, '--no-systemd'], faulty, env);
      expect(ran.status, ran.output).toBe(code);
      expect(ran.stderr.trim().split('\n'), ran.output).toHaveLength(1);
      expect(ran.stderr.trim()).toMatch(line);
      expect(filesUnder(prefix)).toEqual([]);
      expect(filesUnder(env.TMPDIR)).toEqual([]);
    },
    60_000,
  );

  it('installs, starts the installed executable, registers with the policy, waits until hello-secret runs', async () => {
    const ran = await installer(
      ['-i', KIT, '--prefix', prefix, '--no-systemd', '-w', 'hello-secret', '-T', '180'],
      cfg,
    );
    expect(ran.status, ran.output).toBe(0);
    expect(ran.stdout).toContain('device/hello-secret runs on this node');
    // The executable is where the agent may replace it (an upgrade); bin holds links to it.
    expect(readlinkSync(`/proc/${agentPid()}/exe`)).toBe(installed('usr/local/lib/horizon/horizon-agent'));
    // It relaunched itself with its V8 flags, as a single executable takes them.
    expect(readFileSync(`/proc/${agentPid()}/cmdline`, 'utf8').split('\0')).toContain(
      '--node-options=--max-semi-space-size=1 --max-opt=1',
    );
    for (const link of ['hzn', 'horizon-agent'])
      expect(readlinkSync(installed(`usr/local/bin/${link}`))).toBe(
        installed('usr/local/lib/horizon/horizon-agent'),
      );
    expect(readFileSync(installed('etc/default/horizon'), 'utf8')).toContain(`HZN_EXCHANGE_URL=${exchange}`);
    const policy = await fetch(`${exchange}/orgs/device/nodes/device-node/policy`, { headers: asAdmin });
    expect(JSON.stringify(await policy.json())).toContain('"purpose"');
    const agreements = await run(installed('usr/local/bin/hzn'), ['agreement', 'list'], {
      env: { ...process.env, HORIZON_URL: `http://127.0.0.1:${agentPort}` },
    });
    agreementId = /"current_agreement_id": "([0-9a-f]{64})"/.exec(agreements.stdout)?.[1] ?? '';
    expect(agreementId, agreements.output).not.toBe('');
    const containers = await ours();
    expect(containers.map((c) => c.State)).toEqual(['running']);
    containerId = containers[0]?.Id ?? '';
    firstPid = agentPid();
  });

  it('writes a horizon.service that systemd-analyze verify accepts', () => {
    const unit = installed('etc/systemd/system/horizon.service');
    const text = readFileSync(unit, 'utf8');
    for (const line of ['Restart=on-failure', 'NoNewPrivileges=yes', 'ProtectSystem=strict', 'DOCKER_HOST='])
      expect(text).toContain(line);
    // The agent may replace its executable (an upgrade), and a build that keeps failing to start
    // goes back to the previous one (agent/upgrade/upgrade-guard.test.ts).
    const lib = installed('usr/local/lib/horizon');
    expect(text).toContain(`ReadWritePaths=${installed('var/lib/horizon')} ${lib}`);
    expect(text).toContain(
      `ExecStartPre=${lib}/upgrade-guard ${installed('var/lib/horizon')} ${lib}/horizon-agent`,
    );
    const verify = spawnSync('systemd-analyze', ['verify', unit], { encoding: 'utf8' });
    expect(verify.error, 'systemd-analyze is missing (Debian package systemd)').toBeUndefined();
    expect(verify.status, `${verify.stdout}${verify.stderr}`).toBe(0);
    expect(verify.stderr).toBe('');
  });

  it('run again (downloaded, the executable from -i <url>), upgrades in place: a new agent process, the same node, agreement and container', async () => {
    const ran = await installer(
      ['-i', kitUrl, '--prefix', prefix, '--no-systemd', '-w', 'hello-secret', '-T', '120'],
      cfg,
      {},
      'downloaded',
    );
    expect(ran.status, ran.output).toBe(0);
    expect(ran.stdout).toContain(`downloaded ${kitUrl}/horizon-agent-linux-`);
    expect(
      readFileSync(installed('usr/local/bin/horizon-agent')).equals(readFileSync(AGENT_EXECUTABLE)),
    ).toBe(true);
    expect(ran.stdout).toContain('the node device/device-node is registered: kept');
    expect(agentPid()).not.toBe(firstPid);
    const containers = await ours();
    expect(containers.map((c) => [c.Id, c.State])).toEqual([[containerId, 'running']]);
  });

  it('--uninstall unregisters and leaves no file, container, process or Exchange node', async () => {
    const pid = agentPid();
    const ran = await installer(['--prefix', prefix, '--no-systemd', '--uninstall'], {}, {});
    expect(ran.status, ran.output).toBe(0);
    expect(filesUnder(prefix)).toEqual([]);
    expect(await ours()).toEqual([]);
    expect(existsSync(`/proc/${pid}`)).toBe(false);
    const node = await fetch(`${exchange}/orgs/device/nodes/device-node`, { headers: asAdmin });
    expect(node.status).toBe(404);
  });
});

const qemu =
  spawnSync('qemu-aarch64', ['--version']).status === 0 && existsSync('/usr/aarch64-linux-gnu/lib');

describe.skipIf(!docker || !qemu || process.arch !== 'x64')('the arm64 executable under qemu-aarch64', () => {
  it('starts, serves /status and registers its node (arch arm64) against npm start', async () => {
    const port = await freePort();
    const dataDir = join(work, 'arm64');
    // Under qemu-user the agent cannot re-execute itself (no binfmt for the arm64 binary): its V8
    // flags are given as a device never needs to.
    const agent = spawn(
      'qemu-aarch64',
      ['-L', '/usr/aarch64-linux-gnu', join(KIT, 'horizon-agent-linux-arm64')].concat([
        '--node-options=--max-semi-space-size=1 --max-opt=1',
      ]),
      {
        env: {
          ...process.env,
          HZN_AGENT_PORT: String(port),
          HZN_AGENT_DATA_DIR: dataDir,
          HZN_EXCHANGE_URL: exchange,
        },
        stdio: 'ignore',
      },
    );
    try {
      const agentUrl = `http://127.0.0.1:${port}`;
      const deadline = Date.now() + 240_000;
      let status: { configuration?: { architecture?: string } } | undefined;
      while (!status && Date.now() < deadline) {
        status = await fetch(`${agentUrl}/status`).then(
          (r) => r.json() as typeof status,
          () => undefined,
        );
        if (!status) await new Promise((resolve) => setTimeout(resolve, 1000));
      }
      expect(status?.configuration?.architecture).toBe('arm64');
      await hzn(['register', '-n', 'arm64-node:arm64-token', '-u', ADMIN], { HORIZON_URL: agentUrl });
      const node = await fetch(`${exchange}/orgs/device/nodes/arm64-node`, { headers: asAdmin });
      const body = (await node.json()) as { nodes: Record<string, { arch: string }> };
      expect(body.nodes['device/arm64-node']?.arch).toBe('arm64');
      await hzn(['unregister', '-f', '-r'], { HORIZON_URL: agentUrl });
    } finally {
      // Waited for: slow under qemu, it may still be writing its keys when afterAll removes `work`.
      if (agent.exitCode === null && agent.signalCode === null) {
        const exited = new Promise((resolve) => agent.once('exit', resolve));
        agent.kill('SIGTERM');
        await exited;
      }
    }
  }, 400_000);
});
