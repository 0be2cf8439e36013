import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Agent } from '../agent.ts';
import { newAgreement, saveAgreement } from '../agreements/store.ts';
import { workingDirectory } from '../sync/management.ts';
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
import type { UpgradeHost } from './host.ts';
import { journalPath, readJournal, writeJournal } from './journal.ts';
import { upgradeLimits } from './settings.ts';
import { settleUpgrade } from './settle.ts';
import { setJobStatus } from './status.ts';

let fake: FakeExchange;
let dir: ReturnType<typeof tempDir>;
let agent: Agent;
const KEY = `${NODE.org}/up`;
let executable: string;
const restarts: string[] = [];
const host = (version: string): UpgradeHost => ({
  version,
  executable,
  singleExecutable: true,
  restart: (file) => restarts.push(readFileSync(file, 'utf8')),
});
const statusOf = () => fake.managementStatuses.get(nodeKey)?.get(KEY)?.agentUpgradePolicyStatus;

beforeEach(async () => {
  ({ fake, dir, agent } = await startAgentUnderTest());
  await registerNode(agent, fake);
  fake.putManagementPolicy(KEY, {
    enabled: true,
    start: '2099-01-01T00:00:00Z',
    agentUpgradePolicy: { manifest: 'IBM/m' },
  });
  await pollExchange(agent.ctx);
  await setJobStatus(agent.ctx, KEY, { status: 'initiated' });
  executable = join(dir.path, 'bin', 'horizon-agent');
  mkdirSync(join(dir.path, 'bin'));
  writeFileSync(executable, 'new');
  writeFileSync(`${executable}.previous`, 'old');
  restarts.length = 0;
});
afterEach(() => stopAgentUnderTest({ fake, dir, agent }));

const journal = (deadline: number, running?: string[]) =>
  writeJournal(journalPath(workingDirectory(agent.ctx)), {
    key: KEY,
    executable,
    fromVersion: '1.0.0',
    toVersion: '2.0.0',
    deadline,
    ...(running ? { running } : {}),
  });

/** An accepted agreement in the agent's store (its container is on no engine: it does not run). */
function activeAgreement(): string {
  const id = randomBytes(32).toString('hex');
  const deployment = JSON.stringify({ services: { web: { image: 'busybox', command: ['sleep', '3600'] } } });
  saveAgreement(
    agent.ctx.store,
    newAgreement(id, {
      name: `up-${id.slice(0, 8)}`,
      agreement_creation_time: 1,
      agreement_accepted_time: 1,
      agreement_finalized_time: 1,
      proposal: JSON.stringify({
        tsandcs: JSON.stringify({ header: { name: id, version: '2.0' }, workloads: [{ deployment }] }),
      }),
      workload_to_run: { url: 'web', org: NODE.org, version: '1.0.0', arch: 'amd64' },
    }),
  );
  return id;
}
const journalLeft = () => readJournal(journalPath(workingDirectory(agent.ctx)));

describe('the agent that starts after an upgrade', () => {
  it('waits for the Exchange until the deadline, then restores the previous executable and starts it', async () => {
    await journal(Date.now() + 60_000);
    agent.ctx.runtime.exchangeReachable = false;
    expect(await settleUpgrade(agent.ctx, upgradeLimits(), host('2.0.0'))).toBe(true);
    expect(statusOf()?.status).toBe('initiated');

    await journal(Date.now() - 1);
    expect(await settleUpgrade(agent.ctx, upgradeLimits(), host('2.0.0'))).toBe(true);
    expect(statusOf()?.status).toBe('rollback started');
    expect(readFileSync(executable, 'utf8')).toBe('old');
    expect(restarts).toEqual(['old']);

    // The previous agent is back and finds the journal: the rollback worked.
    agent.ctx.runtime.exchangeReachable = true;
    expect(await settleUpgrade(agent.ctx, upgradeLimits(), host('1.0.0'))).toBe(false);
    expect(statusOf()?.status).toBe('rollback successful');
    expect(statusOf()?.errorMessage).toMatch(/Upgrade error: agent 2.0.0 did not prove itself/);
    expect(await journalLeft()).toBeUndefined();
  });

  it('reports rollback failed when no previous executable was kept', async () => {
    await journal(Date.now() - 1);
    agent.ctx.runtime.exchangeReachable = false;
    writeFileSync(executable, 'new');
    await import('node:fs/promises').then((fs) => fs.rm(`${executable}.previous`));
    expect(await settleUpgrade(agent.ctx, upgradeLimits(), host('2.0.0'))).toBe(false);
    expect(statusOf()?.status).toBe('rollback failed');
    expect(restarts).toEqual([]);
    expect(existsSync(executable)).toBe(true);
    expect(await journalLeft()).toBeUndefined();
  });

  it('counts successful once the new version has reached the Exchange; softwareVersions follow', async () => {
    await journal(Date.now() + 60_000);
    agent.ctx.runtime.exchangeReachable = true;
    expect(await settleUpgrade(agent.ctx, upgradeLimits(), host('2.0.0'))).toBe(false);
    expect(statusOf()?.status).toBe('successful');
    expect(fake.nodes.get(nodeKey)?.softwareVersions).toMatchObject({ horizon: '2.0.0' });
    expect(existsSync(`${executable}.previous`)).toBe(false);
  });

  it('waits for the agreements that ran at the swap to run again; past the deadline, rolls back naming them', async () => {
    const id = activeAgreement();
    agent.ctx.runtime.exchangeReachable = true;
    await journal(Date.now() + 60_000, [id]);
    expect(await settleUpgrade(agent.ctx, upgradeLimits(), host('2.0.0'))).toBe(true);
    expect(statusOf()?.status).toBe('initiated');
    await journal(Date.now() - 1, [id]);
    expect(await settleUpgrade(agent.ctx, upgradeLimits(), host('2.0.0'))).toBe(true);
    expect(statusOf()).toMatchObject({
      status: 'rollback started',
      errorMessage: `Upgrade error: agent 2.0.0 did not run agreement(s) ${id} again in time.`,
    });
    expect(restarts).toEqual(['old']);
  });

  it('is not held back by an agreement that ended meanwhile', async () => {
    agent.ctx.runtime.exchangeReachable = true;
    await journal(Date.now() + 60_000, [randomBytes(32).toString('hex')]);
    expect(await settleUpgrade(agent.ctx, upgradeLimits(), host('2.0.0'))).toBe(false);
    expect(statusOf()?.status).toBe('successful');
  });
});
