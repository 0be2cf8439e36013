import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { InvalidTrustFile } from '#lib/protocol/trust-file';
import { makeCert, rsaKey, type TestCert } from '../test-support/certs.ts';
import { tempDir } from '../test-support/harness.ts';
import { checkName, TrustStore } from './store.ts';

let cert: TestCert;
let second: TestCert;
const dirs: { remove(): void }[] = [];
beforeAll(() => {
  const key = rsaKey();
  cert = makeCert({ key, days: 1 });
  second = makeCert({ key, subject: '/CN=second' });
}, 30_000);
afterEach(() => {
  for (const dir of dirs.splice(0)) dir.remove();
});

function open(now: () => number = Date.now) {
  const dir = tempDir();
  dirs.push(dir);
  return { dir: dir.path, store: new TrustStore(join(dir.path, 'trust'), now) };
}

describe('TrustStore', () => {
  it('lists a certificate only while it is valid by the clock it is given', () => {
    let now = Date.now();
    const { store } = open(() => now);
    store.write('a.pem', cert.cert);
    expect(store.list()).toEqual(['a.pem']);
    now += 2 * 86_400_000; // past notAfter: no longer trusted, no longer listed or served
    expect(store.list()).toEqual([]);
    expect(store.read('a.pem')).toBeUndefined();
    expect(() => store.write('b.pem', cert.cert)).toThrow(InvalidTrustFile);
    expect(store.remove('a.pem')).toBe(true);
    expect(store.remove('a.pem')).toBe(false);
  });

  it('sees a file replaced behind its back (the parse cache follows the file)', () => {
    const { store } = open();
    store.write('a.pem', cert.cert);
    expect(store.describe()[0]?.subject_names['commonName (CN)']).toBe('signer.example');
    writeFileSync(join(store.dir, 'a.pem'), `${second.cert}\n`);
    expect(store.describe()[0]?.subject_names['commonName (CN)']).toBe('second');
    writeFileSync(join(store.dir, 'a.pem'), 'garbage');
    expect(store.list()).toEqual([]);
  });

  it('ignores symlinks and non-.pem files in the directory', () => {
    const { dir, store } = open();
    store.write('a.pem', cert.cert);
    writeFileSync(join(dir, 'outside.pem'), cert.cert);
    symlinkSync(join(dir, 'outside.pem'), join(store.dir, 'link.pem'));
    writeFileSync(join(store.dir, 'a.crt'), cert.cert);
    expect(store.list()).toEqual(['a.pem']);
    expect(store.read('link.pem')).toBeUndefined();
  });

  it('accepts plain .pem names only', () => {
    for (const name of ['a.pem', 'my cert (1).pem', 'x..pem']) expect(() => checkName(name)).not.toThrow();
    for (const name of [
      '../a.pem',
      'a/b.pem',
      '..',
      '.',
      '.a.pem',
      'a\\b.pem',
      'a\0.pem',
      `${'x'.repeat(300)}.pem`,
    ]) {
      expect(() => checkName(name), name).toThrow(/plain file name/);
    }
    expect(() => checkName('a.txt')).toThrow(/\.pem suffix/);
  });
});
