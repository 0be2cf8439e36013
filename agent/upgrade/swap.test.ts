import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { journalPath, readJournal, removeJournal, writeJournal } from './journal.ts';
import { restorePrevious, sha256Of, swapIn, swapPaths } from './swap.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'swap-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('swapping the executable', () => {
  it('keeps the running one as .previous, renames the verified one in, and restores it', async () => {
    const exe = join(dir, 'horizon-agent');
    const downloaded = join(dir, 'download');
    writeFileSync(exe, 'old', { mode: 0o755 });
    writeFileSync(downloaded, 'new');
    await swapIn(downloaded, await sha256Of(downloaded), exe);
    expect(readFileSync(exe, 'utf8')).toBe('new');
    expect(statSync(exe).mode & 0o777).toBe(0o755);
    expect(readFileSync(swapPaths(exe).previous, 'utf8')).toBe('old');
    expect(await restorePrevious(exe)).toBe(true);
    expect(readFileSync(exe, 'utf8')).toBe('old');
    expect(await restorePrevious(exe)).toBe(false);
  });

  it('refuses a copy whose hash is not the expected one and leaves the executable as it was', async () => {
    const exe = join(dir, 'horizon-agent');
    const downloaded = join(dir, 'download');
    writeFileSync(exe, 'old');
    writeFileSync(downloaded, 'new');
    await expect(swapIn(downloaded, '0'.repeat(64), exe)).rejects.toThrow(/does not match/);
    expect(readFileSync(exe, 'utf8')).toBe('old');
    expect(() => statSync(swapPaths(exe).staged)).toThrow();
    expect(() => statSync(swapPaths(exe).previous)).toThrow();
  });

  it('the journal survives as written, and a torn one reads as none', async () => {
    const path = journalPath(dir);
    const journal = { key: 'o/p', executable: '/x', fromVersion: '1.0.0', toVersion: '2.0.0', deadline: 5 };
    await writeJournal(path, journal);
    expect(await readJournal(path)).toEqual(journal);
    writeFileSync(path, '{"key":');
    expect(await readJournal(path)).toBeUndefined();
    await removeJournal(path);
    expect(await readJournal(path)).toBeUndefined();
  });
});
