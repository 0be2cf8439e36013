import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../../..');
/** Where test code lives: the test tree and each program's tests and test support. */
const TEST_CODE = ['test', 'agent', 'agbot', 'cli', 'bench'];

const testCode = () =>
  TEST_CODE.flatMap((dir) =>
    readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
      .filter((file) => !file.includes('node_modules') && file.endsWith('.ts'))
      .map((file) => join(root, dir, file)),
  ).filter((file) => /\.test\.ts$|test-support|^test\//.test(relative(root, file)));

describe('test code and the temp directory', () => {
  // Seventeen files made directories under the OS's temp dir and never removed them: a run of the
  // suite left about 50 behind, and a machine that ran it daily filled /tmp.
  it('removes what it makes there: tempDir() (test/support/temp-dir.ts) or its own rm', () => {
    const leaking = testCode().filter((file) => {
      const text = readFileSync(file, 'utf8');
      return /mkdtemp(Sync)?\(join\(tmpdir\(\)/.test(text) && !/\brm(Sync)?\(/.test(text);
    });
    expect(leaking.map((file) => relative(root, file))).toEqual([]);
  });
});
