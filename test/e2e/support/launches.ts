import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, expect } from 'vitest';
import { type Launched, launch } from '#test/support/launcher';

/**
 * `npm start` launches of one test file (npm-start*.test.ts): each test's launches are stopped
 * after it (a failed assertion must not leave a stack running), its temporary folders removed
 * after the file.
 */
export function useLaunches() {
  const running: Launched[] = [];
  const tempDirs: string[] = [];
  afterEach(async () => {
    for (const launched of running.splice(0)) {
      if (launched.child.exitCode === null) {
        launched.child.kill('SIGINT');
        await launched.exited;
      }
    }
  });
  afterAll(() => {
    for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  });
  return {
    tempDir(): string {
      const dir = mkdtempSync(join(tmpdir(), 'exchange-launcher-'));
      tempDirs.push(dir);
      return dir;
    },
    start(env: Record<string, string>): Launched {
      const launched = launch(env);
      running.push(launched);
      return launched;
    },
    async stop(launched: Launched): Promise<number | null> {
      launched.child.kill('SIGINT');
      return launched.exited;
    },
  };
}

/** A refusal's output: every fragment, and no stack trace. */
export function expectOneClearMessage(output: string, ...fragments: string[]): void {
  for (const fragment of fragments) expect(output).toContain(fragment);
  expect(output).not.toMatch(/^\s+at /m);
}
