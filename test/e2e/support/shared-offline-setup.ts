import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { hostsIn, stopHost } from './offline-hosts.ts';

/**
 * The e2e project's global setup for the workers' shared servers (shared-offline.ts): the folder
 * where their hosts say where they listen, and their stop, by pid, when the run ends (or before a
 * rerun in watch mode, whose functions are built anew).
 */
export function setup(project: TestProject): () => Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'e2e-shared-offline-'));
  project.provide('sharedOffline', {
    dir,
    runPid: process.pid,
    tablePrefix: `e2e-shared-${randomBytes(4).toString('hex')}`,
  });
  project.onTestsRerun(() => stopHosts(dir));
  return async () => {
    await stopHosts(dir);
    rmSync(dir, { recursive: true, force: true });
  };
}

async function stopHosts(dir: string): Promise<void> {
  const files = readdirSync(dir);
  const hosts = hostsIn(dir, files);
  for (const host of hosts) stopHost(host);
  // Each host stops its server (SIGKILL after 5 s) before it exits: wait for that, bounded.
  const deadline = Date.now() + 15_000;
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  while (hosts.some((h) => alive(h.hostPid)) && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 100));
  for (const host of hosts) {
    for (const pid of [host.hostPid, host.serverPid === undefined ? undefined : -host.serverPid])
      if (pid !== undefined)
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // stopped
        }
  }
  for (const name of files) if (/^pool-\d+\.json$/.test(name)) rmSync(join(dir, name), { force: true });
}
