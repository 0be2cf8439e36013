import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_MS } from '#test/support/deadlines';
import type { Credentials } from '#test/support/http';
import { createOrg, createUser, expectStatus, freshId } from '#test/support/world';
import { freePort, waitForPort } from '../../scripts/local/ports.ts';
import { run } from './support/device-kit.ts';
import { useSharedOffline } from './support/shared-offline.ts';

/**
 * The shipped agbot (dist/agbot.mjs, built here) as a child process against the real Exchange:
 * it publishes its messaging key, runs its rounds (heartbeats) every second, serves its status
 * API, keeps its key across a restart, and stops on SIGTERM with exit code 0.
 */
const server = useSharedOffline();
const ORG = freshId('agbot-e2e');
const AGBOT = 'ab1';
const TOKEN = 'ab1-agbot-token';
const agbotPath = `/v1/orgs/${ORG}/agbots/${AGBOT}`;
let root: Credentials;
let dataDir: string;

interface RunningAgbot {
  port: number;
  process: ChildProcess;
  output(): string;
  stop(): Promise<number | null>;
}

async function startAgbot(env: Record<string, string> = {}): Promise<RunningAgbot> {
  const port = await freePort();
  const child = spawn(process.execPath, ['dist/agbot.mjs'], {
    env: {
      PATH: process.env.PATH,
      HZN_EXCHANGE_URL: `${server.baseUrl}/v1`,
      HZN_AGBOT_ID: `${ORG}/${AGBOT}`,
      HZN_AGBOT_TOKEN: TOKEN,
      HZN_AGBOT_DATA_DIR: dataDir,
      HZN_AGBOT_POLL_SECONDS: '1',
      HZN_AGBOT_PORT: String(port),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    await waitForPort(port, 15_000);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`the agbot did not start: ${(error as Error).message}\n${output}`);
  }
  return {
    port,
    process: child,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

// biome-ignore lint/suspicious/noExplicitAny: the status API's answers are read field by field.
const status = async (agbot: RunningAgbot, path: string): Promise<{ status: number; body: any }> => {
  const response = await fetch(`http://127.0.0.1:${agbot.port}${path}`);
  return { status: response.status, body: await response.json() };
};

beforeAll(async () => {
  const build = await run('npm', ['run', '--silent', 'build:agbot']);
  if (build.status !== 0) throw new Error(`npm run build:agbot failed: ${build.stderr}`);
  dataDir = mkdtempSync(join(tmpdir(), 'agbot-e2e-'));
  root = { user: 'root/root', secret: server.rootPassword };
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('the agbot program (dist/agbot.mjs) against the Exchange', () => {
  it('refuses a bad configuration with exit code 2 and one line naming the variable', () => {
    const run = spawnSync(process.execPath, ['dist/agbot.mjs'], {
      env: { PATH: process.env.PATH, HZN_AGBOT_ID: 'no-slash', HZN_AGBOT_TOKEN: 'x' },
      encoding: 'utf8',
    });
    expect(run.status).toBe(2);
    expect(run.stderr.trim()).toBe('agbot: HZN_AGBOT_ID must be <org>/<id>, not "no-slash"');
  });

  it('publishes its key, heartbeats every round, serves its status, keeps its key across a restart', async () => {
    const f = { http: server.http, root };
    await createOrg(f, ORG);
    const admin = await createUser(f, ORG, 'admin', { admin: true });
    expectStatus(
      await server.http('PUT', agbotPath, {
        auth: admin,
        body: { token: TOKEN, name: 'e2e agbot', publicKey: '' },
      }),
      200,
      `PUT ${agbotPath}`,
    );

    // The heartbeat is written by this start (timestamps may be whole seconds).
    const startedAt = Math.floor(Date.now() / 1000) * 1000;
    const first = await startAgbot();
    await expect.poll(async () => (await status(first, '/status')).body.rounds).toBeGreaterThanOrEqual(2);
    const record = (await server.http('GET', agbotPath, { auth: root })).body as {
      agbots: Record<string, { publicKey: string; lastHeartbeat: string }>;
    };
    const published = record.agbots[`${ORG}/${AGBOT}`];
    expect(published?.publicKey).toMatch(/^MIIBIjAN/);
    // Upstream's form: `<ISO 8601>[UTC]`.
    const heartbeat = Date.parse((published?.lastHeartbeat ?? '').replace('[UTC]', ''));
    expect(heartbeat).toBeGreaterThanOrEqual(startedAt);
    expect(await status(first, '/agreement')).toEqual({
      status: 200,
      body: { agreements: { active: [], archived: [] } },
    });
    expect((await status(first, '/status')).body).toMatchObject({ org: ORG, id: AGBOT });
    expect(first.output()).not.toContain(TOKEN);
    expect(await first.stop()).toBe(0);

    const second = await startAgbot();
    await expect
      .poll(async () => (await status(second, '/status')).body.rounds, { timeout: EVENT_MS })
      .toBeGreaterThanOrEqual(1);
    const again = (await server.http('GET', agbotPath, { auth: root })).body as typeof record;
    expect(again.agbots[`${ORG}/${AGBOT}`]?.publicKey).toBe(published?.publicKey);
    expect(await second.stop()).toBe(0);
  });
});
