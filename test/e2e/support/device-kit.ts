import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

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

/**
 * Builds the kit (`KEEP_BIN=1` reuses one already in dist/bin, when iterating on a test). With
 * `run` (a token of this test run: the e2e project's `exchangeBuildDir`), the kit is built once
 * per run (buildOncePerRun): the e2e project's global setup starts that build in the background
 * when the run has a file that installs the kit (device-kits.ts); a file finds it done or waits
 * for it, and builds it itself if nothing did.
 */
export async function buildKit(run?: string): Promise<void> {
  if (process.env.KEEP_BIN === '1' && existsSync(AGENT_EXECUTABLE) && existsSync(INSTALLER)) return;
  if (run === undefined) return build();
  return buildOncePerRun(KIT, run, build);
}

async function build(): Promise<void> {
  const built = await run('npm', ['run', '--silent', 'build:bin'], { timeoutMs: 600_000 });
  if (built.status !== 0) throw new Error(`npm run build:bin failed:\n${built.output}`);
}

/**
 * Makes the kit in `dir` with `make` once per run: whoever needs it takes the folder's lock, the
 * first builds, the others find the build stamped with the same token and reuse it (two builds at
 * once would also write the same files and work folder). The lock is taken before the first
 * `await`, so a build started by the global setup holds it before any file runs.
 */
export async function buildOncePerRun(dir: string, run: string, make: () => Promise<void>): Promise<void> {
  const stamp = join(dir, '.built-for-run');
  const release = await lockKit(dir);
  try {
    const built = existsSync(join(dir, `horizon-agent-linux-${HOST_ARCH}`));
    if (built && existsSync(stamp) && readFileSync(stamp, 'utf8') === run) return;
    rmSync(stamp, { force: true });
    await make();
    writeFileSync(stamp, run);
  } finally {
    release();
  }
}

/**
 * Takes a kit folder's build lock: a folder naming its holder's pid, made whole elsewhere and
 * renamed into place (so it never lacks the pid). A holder that died leaves it to the next. Waits
 * while another process builds; the deadline only bounds a failure.
 */
async function lockKit(dir: string): Promise<() => void> {
  const lock = `${dir}.lock`;
  const deadline = Date.now() + 900_000;
  mkdirSync(dirname(dir), { recursive: true });
  for (;;) {
    const mine = `${lock}.${process.pid}`;
    mkdirSync(mine, { recursive: true });
    writeFileSync(join(mine, 'pid'), String(process.pid));
    try {
      renameSync(mine, lock);
      return () => rmSync(lock, { recursive: true, force: true });
    } catch (error) {
      rmSync(mine, { recursive: true, force: true });
      if (!['EEXIST', 'ENOTEMPTY'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
    }
    const holder = Number(readIfThere(join(lock, 'pid')));
    if (holder && !alive(holder)) rmSync(lock, { recursive: true, force: true });
    else if (Date.now() > deadline) throw new Error(`${lock}: held by pid ${holder} too long`);
    else await sleep(250);
  }
}

const readIfThere = (path: string): string => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
};

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
