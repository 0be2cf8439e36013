import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Agent } from '../agent.ts';
import type { Loop } from '../runtime/worker-loop.ts';
import { pollExchange } from '../sync/poll.ts';
import type { FakeExchange } from '../test-support/fake-exchange.ts';
import {
  NODE,
  nodeKey,
  registerNode,
  startAgentUnderTest,
  stopAgentUnderTest,
  type tempDir,
} from '../test-support/harness.ts';
import { runUpgradeJob } from './job.ts';
import { setJobStatus } from './status.ts';
import { type JobRunner, startUpgradeWorker } from './worker.ts';

let fake: FakeExchange;
let dir: ReturnType<typeof tempDir>;
let agent: Agent;
let worker: Loop | undefined;

beforeEach(async () => {
  ({ fake, dir, agent } = await startAgentUnderTest());
  fake.patterns.add(`${NODE.org}/p1`);
  await registerNode(agent, fake, { pattern: `${NODE.org}/p1` });
});
afterEach(async () => {
  await worker?.stop();
  worker = undefined;
  for (const name of ['DOWNLOAD_SECONDS', 'INSTALL_SECONDS', 'RESTART_SECONDS', 'RETRY_SECONDS', 'KEYS'])
    delete process.env[`HZN_AGENT_UPGRADE_${name}`];
  await stopAgentUnderTest({ fake, dir, agent });
});

const nmp = (fields: Record<string, unknown> = {}) => ({
  owner: `${NODE.org}/admin`,
  label: 'upgrade',
  patterns: [`${NODE.org}/p1`],
  enabled: true,
  start: 'now',
  startWindow: 0,
  agentUpgradePolicy: { allowDowngrade: false, manifest: 'IBM/agent-upgrade-9.9.9' },
  ...fields,
});
const inExchange = (name: string) =>
  fake.managementStatuses.get(nodeKey)?.get(`${NODE.org}/${name}`)?.agentUpgradePolicyStatus;
const statusOf = (name: string) => inExchange(name)?.status;
const eventCodes = async () =>
  ((await agent.app.inject({ method: 'GET', url: '/eventlog/all' })).json() as { event_code: string }[]).map(
    (e) => e.event_code,
  );
const startWorker = (runner: JobRunner = runUpgradeJob) => {
  worker = startUpgradeWorker(
    agent.ctx,
    { registry: agent.ctx.workers, log: agent.ctx.log, retryMinMs: 20, retryMaxMs: 100 },
    runner,
  );
};

describe('the agent notices the policies that apply to it', () => {
  it('schedules a waiting status inside the window, skips other patterns, removes it when disabled', async () => {
    const start = Date.parse('2031-06-01T00:00:00Z');
    fake.putManagementPolicy(
      `${NODE.org}/later`,
      nmp({ start: new Date(start).toISOString(), startWindow: 600 }),
    );
    fake.putManagementPolicy(`${NODE.org}/elsewhere`, nmp({ patterns: [`${NODE.org}/p2`] }));
    await pollExchange(agent.ctx); // the first poll reads everything
    const scheduled = inExchange('later');
    expect(scheduled?.status).toBe('waiting');
    const at = Date.parse(String(scheduled?.scheduledTime));
    expect(at).toBeGreaterThanOrEqual(start);
    expect(at).toBeLessThan(start + 600_000);
    expect(inExchange('elsewhere')).toBeUndefined();
    expect(await eventCodes()).toContain('node_management_policy_scheduled');

    // Disabled: a mgmtpolicy change row makes the next poll read the policies again.
    fake.putManagementPolicy(`${NODE.org}/later`, nmp({ enabled: false }));
    await pollExchange(agent.ctx);
    expect(inExchange('later')).toBeUndefined();
    const local = (await agent.app.inject({ method: 'GET', url: '/nodemanagement/status' })).json();
    expect(local).not.toHaveProperty(`${NODE.org}/later`);
  });

  it('a bare pattern name reaches the node; a waiting status follows an edit of its policy', async () => {
    fake.putManagementPolicy(`${NODE.org}/bare`, nmp({ patterns: ['p1'], start: '2031-01-01T00:00:00Z' }));
    await pollExchange(agent.ctx);
    expect(inExchange('bare')?.scheduledTime).toBe('2031-01-01T00:00:00Z');
    fake.putManagementPolicy(`${NODE.org}/bare`, nmp({ patterns: ['p1'], start: '2032-01-01T00:00:00Z' }));
    await pollExchange(agent.ctx);
    expect(inExchange('bare')?.scheduledTime).toBe('2032-01-01T00:00:00Z');
  });
});

describe('jobs become due at their time, and none blocks the next', () => {
  it('a due job runs; one that fails does not keep the next from running', async () => {
    fake.putManagementPolicy(`${NODE.org}/first`, nmp({ start: '2020-01-01T00:00:00Z' }));
    fake.putManagementPolicy(`${NODE.org}/second`, nmp({ start: '2020-01-02T00:00:00Z' }));
    fake.putManagementPolicy(`${NODE.org}/future`, nmp({ start: '2099-01-01T00:00:00Z' }));
    await pollExchange(agent.ctx);
    startWorker();
    // No upgrade key is pinned here: each job is refused before any download.
    await expect.poll(() => statusOf('second')).toBe('precheck failed');
    expect(statusOf('first')).toBe('precheck failed');
    expect(inExchange('first')?.errorMessage).toMatch(/no upgrade signing key is pinned/);
    expect(statusOf('future')).toBe('waiting');
  });

  it('a download the object store fails is tried again later, back to waiting, and ends download failed after 4 attempts', async () => {
    // A pinned key (any), and an object store that answers nothing: a network error, which may pass.
    const key = join(dir.path, 'pinned.pem');
    writeFileSync(
      key,
      generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }),
    );
    process.env.HZN_AGENT_UPGRADE_KEYS = key;
    process.env.HZN_AGENT_UPGRADE_RETRY_SECONDS = '0.05';
    agent.ctx.config.cssUrl = 'http://127.0.0.1:9/css'; // the discard port: nothing listens
    fake.putManagementPolicy(`${NODE.org}/flaky`, nmp());
    await pollExchange(agent.ctx);
    startWorker();
    await expect.poll(() => statusOf('flaky')).toBe('download failed');
    expect(inExchange('flaky')?.errorMessage).toMatch(/attempt 4 of 4/);
    const retries = (await eventCodes()).filter((code) => code === 'node_management_upgrade_retry');
    expect(retries).toHaveLength(3);
  });

  it('a stuck job ends failed at its stage deadline and the next job runs', async () => {
    for (const stage of ['DOWNLOAD', 'INSTALL', 'RESTART'])
      process.env[`HZN_AGENT_UPGRADE_${stage}_SECONDS`] = '0.3';
    fake.putManagementPolicy(`${NODE.org}/stuck`, nmp({ start: '2020-01-01T00:00:00Z' }));
    fake.putManagementPolicy(`${NODE.org}/next`, nmp({ start: '2020-01-02T00:00:00Z' }));
    await pollExchange(agent.ctx);
    const ran: string[] = [];
    startWorker(async (ctx, key, limits) => {
      ran.push(key);
      await setJobStatus(ctx, key, { status: 'download started', stageMs: limits.downloadMs });
      if (key.endsWith('/stuck')) await new Promise(() => {}); // never returns, ignores every signal
    });
    await expect.poll(() => statusOf('stuck')).toBe('failed');
    expect(inExchange('stuck')?.errorMessage).toMatch(/did not finish in time/);
    await expect.poll(() => ran).toEqual([`${NODE.org}/stuck`, `${NODE.org}/next`]);
    expect(await eventCodes()).toContain('node_management_job_timed_out');
  });
});
