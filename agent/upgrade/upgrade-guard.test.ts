import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { journalPath, removeJournal, writeJournal } from './journal.ts';

/**
 * The upgrade guard horizon.service runs before each start (ExecStartPre), as agent-install.sh
 * writes it, run with sh over real files: the journal an upgrade leaves, the new executable and
 * the previous one kept beside it. systemd restarts a build that exits at start; at its 4th start
 * the guard puts the previous build back, which then reports the rollback (settle.ts).
 */
const installer = readFileSync(resolve(import.meta.dirname, '../../lib/device/agent-install.sh'), 'utf8');
const GUARD = /<<'GUARD'\n([\s\S]*?)\nGUARD\n/.exec(installer)?.[1] ?? '';

let dir: string;
let guard: string;
let dataDir: string;
let executable: string;
const journal = () => journalPath(join(dataDir, 'nmp'));
const start = () => {
  const ran = spawnSync('/bin/sh', [guard, dataDir, executable], { encoding: 'utf8' });
  expect(ran.status, ran.stderr).toBe(0);
  return ran.stderr;
};
const upgradeJournal = () =>
  writeJournal(journal(), {
    key: 'org/nmp',
    executable,
    fromVersion: '1.0.0',
    toVersion: '2.0.0',
    deadline: 0,
  });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'upgrade-guard-'));
  guard = join(dir, 'upgrade-guard');
  writeFileSync(guard, GUARD);
  chmodSync(guard, 0o755);
  dataDir = join(dir, 'data');
  mkdirSync(dataDir);
  executable = join(dir, 'horizon-agent');
  writeFileSync(executable, 'new build');
  writeFileSync(`${executable}.previous`, 'previous build');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("horizon.service's upgrade guard", () => {
  it('is in the installer', () => {
    expect(GUARD).toMatch(/^#!\/bin\/sh\n/);
  });

  it('gives the new build three starts, then puts the previous one back', async () => {
    await upgradeJournal();
    for (let i = 0; i < 3; i++) expect(start()).toBe('');
    expect(readFileSync(executable, 'utf8')).toBe('new build');
    expect(start()).toContain('the previous one is back');
    expect(readFileSync(executable, 'utf8')).toBe('previous build');
    expect(existsSync(`${executable}.previous`)).toBe(false);
  });

  it('counts nothing without an open journal, and clears what an earlier one left', async () => {
    mkdirSync(join(dataDir, 'nmp'));
    writeFileSync(`${journal()}.starts`, '7');
    for (let i = 0; i < 5; i++) start();
    expect(readFileSync(executable, 'utf8')).toBe('new build');
    expect(existsSync(`${journal()}.starts`)).toBe(false);
  });

  it("starts its count anew with each upgrade's journal, and the settled journal takes its count away", async () => {
    await upgradeJournal();
    start();
    start();
    await removeJournal(journal()); // settled: successful
    expect(existsSync(`${journal()}.starts`)).toBe(false);
    writeFileSync(`${journal()}.starts`, '2'); // as if the guard ran between the journals
    await upgradeJournal(); // the next upgrade
    for (let i = 0; i < 3; i++) start();
    expect(readFileSync(executable, 'utf8')).toBe('new build');
  });
});
