import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/** The directories this test file made: removed after its last test. */
const made: string[] = [];

// Registered when a test file imports this module, so before the file's own hooks: vitest runs
// after-hooks last-registered first, so a server a file stops in its afterAll is stopped before
// its directory goes.
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * A new empty directory under the OS's temp directory, removed with all it holds once the test
 * file has run, so that a run of the suite leaves nothing behind (docs/testing.md). It lives on
 * the lowest floor whose tests use it (cli/ may import only cli/ and lib/); the other tests take it
 * from test/support/temp-dir.ts.
 */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
