import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Io } from '../io.ts';
import { run } from '../program.ts';

/**
 * One in-process run of hzn with a given environment and stdin, its output captured. Sleeps are
 * instant (the polling loops still run in order); the working dir, HOME and /etc are empty temp
 * dirs unless given, removed when the run ends.
 */
export interface HznRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface HznOptions {
  env?: Record<string, string | undefined>;
  stdin?: string;
  cwd?: string;
  home?: string;
  etcDir?: string;
}

export async function hzn(argv: string[], options: HznOptions = {}): Promise<HznRun> {
  let stdout = '';
  let stderr = '';
  const lines = (options.stdin ?? '').split('\n');
  let clock = Date.now();
  const scratch: string[] = [];
  const emptyDir = (prefix: string) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    scratch.push(dir);
    return dir;
  };
  const io: Io = {
    out: (text) => {
      stdout += text;
    },
    err: (text) => {
      stderr += text;
    },
    readStdin: async () => options.stdin ?? '',
    readLine: async () => (options.stdin === undefined || lines.length === 0 ? undefined : lines.shift()),
    env: { HZN_HTTP_RETRIES: '0', ...options.env },
    cwd: options.cwd ?? emptyDir('hzn-cwd-'),
    home: options.home ?? emptyDir('hzn-home-'),
    etcDir: options.etcDir ?? emptyDir('hzn-etc-'),
    now: () => clock,
    sleep: async (ms) => {
      clock += ms;
    },
  };
  try {
    const code = await run(argv, io);
    return { code, stdout, stderr };
  } finally {
    for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
  }
}
