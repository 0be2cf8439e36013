import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * What an upgrade under way must remember across the restart it causes: written (and synced to
 * disk) before the swap, read by the agent that starts next, removed once the job has ended.
 */
export interface UpgradeJournal {
  key: string;
  executable: string;
  fromVersion: string;
  toVersion: string;
  /** When the new agent must have proved itself (ms since the epoch); past it, the previous one comes back. */
  deadline: number;
  /** The agreements whose containers all ran at the swap: they must run again (workloads.ts). */
  running?: string[];
}

export const journalPath = (workingDirectory: string) => join(workingDirectory, 'upgrade-journal.json');

/**
 * Beside the journal, under systemd: how many times the service started while it was open, counted
 * by the unit's upgrade guard (agent-install.sh writes it); a journal starts and ends its count.
 */
const startsPath = (journal: string) => `${journal}.starts`;

export async function writeJournal(path: string, journal: UpgradeJournal): Promise<void> {
  const part = `${path}.part`;
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await rm(startsPath(path), { force: true });
  const file = await open(part, 'w', 0o600);
  try {
    await file.writeFile(JSON.stringify(journal));
    await file.sync();
  } finally {
    await file.close();
  }
  await rename(part, path);
}

export async function readJournal(path: string): Promise<UpgradeJournal | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as UpgradeJournal;
  } catch {
    return undefined; // none, or torn before its rename (then the swap never began)
  }
}

export async function removeJournal(path: string): Promise<void> {
  await rm(path, { force: true });
  await rm(startsPath(path), { force: true });
}
