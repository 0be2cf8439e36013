import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SecretFiles } from './secret-files.ts';

const root = mkdtempSync(join(tmpdir(), 'oe-secret-files-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('SecretFiles', () => {
  const files = new SecretFiles(root);

  it('writes one JSON file per secret, 0600 in a 0700 directory', () => {
    files.write('ag1', { token: { key: 'user', value: 's3cret' } });
    const path = join(root, 'ag1', 'token');
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ key: 'user', value: 's3cret' });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(root, 'ag1')).mode & 0o777).toBe(0o700);
    expect(files.names('ag1')).toEqual(['token']);
  });

  it('replaces a file by rename (a new inode), leaving no temporary file', () => {
    const path = join(root, 'ag1', 'token');
    const before = statSync(path).ino;
    files.write('ag1', { token: { key: 'user', value: 'rotated' } });
    expect(JSON.parse(readFileSync(path, 'utf8')).value).toBe('rotated');
    expect(statSync(path).ino).not.toBe(before);
    expect(files.names('ag1')).toEqual(['token']);
  });

  it('refuses names that would leave the directory', () => {
    expect(() => files.write('ag1', { '../escape': { key: 'k', value: 'v' } })).toThrow(
      /not a valid file name/,
    );
    expect(() => files.write('../ag', { token: { key: 'k', value: 'v' } })).toThrow(/directory name/);
  });

  it('removes an agreement’s secrets with their directory', () => {
    files.remove('ag1');
    expect(files.names('ag1')).toEqual([]);
    expect(() => statSync(join(root, 'ag1'))).toThrow();
  });
});
