import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What the device tests share: the kit `npm run build:bin` leaves in dist/bin (executables and
 * installer), and running a program to its end without blocking the event loop (the stack under
 * test writes to pipes this process must keep reading).
 */
export const KIT = join(process.cwd(), 'dist', 'bin');
export const HOST_ARCH = process.arch === 'arm64' ? 'arm64' : 'x64';
export const AGENT_EXECUTABLE = join(KIT, `horizon-agent-linux-${HOST_ARCH}`);
export const HZN_EXECUTABLE = join(KIT, `hzn-linux-${HOST_ARCH}`);
export const INSTALLER = join(KIT, 'agent-install.sh');

export interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
  output: string;
}

export function run(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {},
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: options.env ?? process.env,
      cwd: options.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.once('error', reject);
    child.once('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr, output: `${stdout}\n${stderr}` });
    });
  });
}

/** Builds the kit (`KEEP_BIN=1` reuses one already in dist/bin, when iterating on a test). */
export async function buildKit(): Promise<void> {
  if (process.env.KEEP_BIN === '1' && existsSync(AGENT_EXECUTABLE) && existsSync(INSTALLER)) return;
  const built = await run('npm', ['run', '--silent', 'build:bin'], { timeoutMs: 600_000 });
  if (built.status !== 0) throw new Error(`npm run build:bin failed:\n${built.output}`);
}
