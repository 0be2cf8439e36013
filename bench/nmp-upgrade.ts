/**
 * Agent upgrades over the air (issue 35): `npm run bench:nmp-upgrade`. One idle node (no
 * agreement), installed by agent-install.sh --prefix --no-systemd from the kit `npm run build:bin`
 * makes (version A), with the agent's default settings (the signal channel, no fast poll), against
 * `npm start`. Three upgrades by node management policy, each timed from the NMP's POST to the
 * node's status `successful` in the Exchange: A → B (a second build, 0.2.0), B → A (allowDowngrade),
 * A → B again. Prints each, their stages (the status's scheduled, start and end times) and the
 * median. Skipped (with a line) without a container engine: the installer wants one.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reachableEngine } from '../agent/test-support/engine.ts';
import { freePort } from '../scripts/local/ports.ts';
import { buildKit, INSTALLER, KIT, run } from '../test/e2e/support/device-kit.ts';
import {
  buildVersion,
  installFromExchange,
  keyPairs,
  publishKit,
} from '../test/e2e/support/upgrade-device.ts';
import { freePorts, launch } from '../test/support/launcher.ts';

const ORG = 'bench-nmp';
const NODE = 'idle-node';
const ROOT_PW = 'bench-nmp-root-pw';
const ADMIN_PW = 'bench-nmp-admin-pw';
const VERSION_A = '0.1.0';
const VERSION_B = '0.2.0';

if (!(await reachableEngine())) {
  console.log('No container engine (DOCKER_HOST): skipped.');
  process.exit(0);
}
const work = mkdtempSync(join(tmpdir(), 'bench-nmp-'));
const prefix = join(work, 'root');
const ports = await freePorts();
const exchange = `http://127.0.0.1:${ports.http}/v1`;
const launched = launch({
  EXCHANGE_DATA_DIR: join(work, 'stack'),
  EXCHANGE_PORT: String(ports.http),
  EXCHANGE_DYNAMODB_PORT: String(ports.dynamo),
  EXCHANGE_ROOT_PW: ROOT_PW,
  HZN_AGBOT_PORT: String(await freePort()),
});
const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
async function call(auth: string, method: string, path: string, body?: unknown) {
  const answer = await fetch(`${exchange}/${path}`, {
    method,
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!answer.ok && answer.status !== 404)
    throw new Error(`${method} ${path}: ${answer.status} ${await answer.text()}`);
  return answer.status === 404 ? undefined : answer.json();
}
const root = basic('root/root', ROOT_PW);
const admin = basic(`${ORG}/admin`, ADMIN_PW);

interface Upgrade {
  to: string;
  ms: number;
  status: { scheduledTime?: string; startTime?: string; endTime?: string };
}

/** An NMP to `version` for the node, now: the time until its status reads `successful`. */
async function upgrade(name: string, version: string, allowDowngrade: boolean): Promise<Upgrade> {
  const started = Date.now();
  await call(admin, 'POST', `orgs/${ORG}/managementpolicies/${name}`, {
    label: name,
    constraints: ['purpose == bench'],
    enabled: true,
    start: 'now',
    startWindow: 0,
    agentUpgradePolicy: { manifest: `IBM/agent-upgrade-${version}`, allowDowngrade },
  });
  const deadline = started + 600_000;
  for (;;) {
    const answer = (await call(admin, 'GET', `orgs/${ORG}/nodes/${NODE}/managementStatus/${name}`)) as
      | {
          managementStatus?: Record<
            string,
            { agentUpgradePolicyStatus?: Upgrade['status'] & { status?: string } }
          >;
        }
      | undefined;
    const status = answer?.managementStatus?.[`${ORG}/${name}`]?.agentUpgradePolicyStatus;
    if (status?.status === 'successful') return { to: version, ms: Date.now() - started, status };
    if (status?.status && /failed|rollback/.test(status.status))
      throw new Error(`${name}: ${JSON.stringify(status)}`);
    if (Date.now() > deadline)
      throw new Error(`${name}: not successful within 600 s: ${JSON.stringify(status)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

try {
  await Promise.all([buildKit(), launched.waitFor(/Press Ctrl-C to stop/, 600_000)]);
  const installerUrl = (await launched.waitFor(/Device installer: (\S+)/, 1000))[1] ?? '';
  const kitB = join(work, 'kit-b');
  await buildVersion(VERSION_B, kitB);
  keyPairs(join(work, 'keys'), ['publisher']);
  for (const kit of [KIT, kitB])
    await publishKit(exchange, ROOT_PW, kit, join(work, 'keys', 'publisher.key'));
  await call(root, 'POST', `orgs/${ORG}`, { label: ORG, description: 'bench:nmp-upgrade' });
  await call(root, 'POST', `orgs/${ORG}/users/admin`, {
    password: ADMIN_PW,
    admin: true,
    email: 'a@example.com',
  });
  const policy = join(work, 'node-policy.json');
  writeFileSync(
    policy,
    JSON.stringify({ properties: [{ name: 'purpose', value: 'bench' }], constraints: [] }),
  );
  const installed = await installFromExchange(
    installerUrl,
    join(work, 'device'),
    {
      HZN_EXCHANGE_URL: exchange,
      HZN_ORG_ID: ORG,
      HZN_EXCHANGE_USER_AUTH: `admin:${ADMIN_PW}`,
      HZN_NODE_ID: NODE,
      HZN_NODE_POLICY: policy,
      AGENT_UPGRADE_KEYS: join(work, 'keys', 'publisher.pem'),
      HZN_AGENT_PORT: String(await freePort()),
    },
    ['-i', KIT, '--prefix', prefix, '--no-systemd'],
  );
  if (installed.status !== 0) throw new Error(`agent-install.sh:\n${installed.output}`);

  const upgrades = [
    await upgrade('to-b', VERSION_B, false),
    await upgrade('back-to-a', VERSION_A, true),
    await upgrade('to-b-again', VERSION_B, false),
  ];
  console.log('## NMP added → successful, one idle node (agent-install.sh --no-systemd, default settings)\n');
  console.log('| Upgrade | NMP added → successful (s) | scheduled | started | ended |');
  console.log('| ------- | -------------------------: | --------- | ------- | ----- |');
  for (const u of upgrades)
    console.log(
      `| → ${u.to} | ${(u.ms / 1000).toFixed(1)} | ${u.status.scheduledTime} | ${u.status.startTime} | ${u.status.endTime} |`,
    );
  const median = [...upgrades].sort((a, b) => a.ms - b.ms)[1]?.ms ?? 0;
  console.log(`\nMedian of ${upgrades.length}: ${(median / 1000).toFixed(1)} s`);
} finally {
  await run(INSTALLER, ['--prefix', prefix, '--no-systemd', '--uninstall'], {
    cwd: work,
    timeoutMs: 120_000,
  });
  if (launched.child.exitCode === null) {
    launched.child.kill('SIGINT');
    await launched.exited;
  }
  rmSync(work, { recursive: true, force: true });
}
