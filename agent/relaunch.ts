import { isSea } from 'node:sea';

/**
 * The V8 options the agent runs with, set by the agent itself so that `node dist/agent.mjs` (or
 * `npm run agent`) is all a device needs. They trade peak speed the agent never needs (its API
 * serves a local CLI) for resident memory (figures in docs/benchmarks.md, "Node agent"):
 * - `--max-semi-space-size=1`: a 1 MB young generation (V8 grows it to 8 MB under load);
 * - `--max-opt=1`: no optimizing compilers (Maglev, TurboFan), only the baseline one: their code
 *   and work memory add about 12 MB; a GET /node still takes about 0.2 ms (0.07 ms with them).
 * `HZN_AGENT_NODE_FLAGS` replaces the list (empty: run with Node's defaults).
 */
export const DEFAULT_NODE_FLAGS = ['--max-semi-space-size=1', '--max-opt=1'];

/**
 * The flags of `wanted` the process was not started with (a flag counts by its name, so an
 * operator's own value, on the command line or in NODE_OPTIONS, wins).
 */
export function missingFlags(execArgv: readonly string[], wanted: readonly string[]): string[] {
  const name = (flag: string) => flag.split('=')[0]?.replaceAll('_', '-');
  const given = new Set(execArgv.map(name));
  return wanted.filter((flag) => !given.has(name(flag)));
}

/** The flags asked for: HZN_AGENT_NODE_FLAGS (space-separated), else the defaults. */
export function wantedFlags(env: NodeJS.ProcessEnv = process.env): string[] {
  const raw = env.HZN_AGENT_NODE_FLAGS;
  return raw === undefined ? DEFAULT_NODE_FLAGS : raw.split(/\s+/).filter(Boolean);
}

/**
 * The command line that runs this program again with `missing` added. The single executable
 * (scripts/device/build-executables.ts) takes Node options only as `--node-options=<flags>`
 * (anything else on its command line is the program's), and its argv[1] is its own path.
 */
export function relaunchArgs(missing: readonly string[], sea = isSea()): string[] {
  if (sea)
    return [
      process.execPath,
      `--node-options=${[...process.execArgv, ...missing].join(' ')}`,
      ...process.argv.slice(2),
    ];
  return [process.execPath, ...process.execArgv, ...missing, ...process.argv.slice(1)];
}

/**
 * Replaces this process (same pid, same stdio, same environment) with node started with the
 * missing flags, before the agent has done anything; returns when nothing is missing or when
 * this Node cannot replace itself (process.execve arrived in Node 22.15; not on Windows), and
 * the agent then runs with Node's defaults. V8 reads these options only when it starts.
 */
export function relaunchWithFlags(flags: readonly string[] = wantedFlags()): void {
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  const missing = missingFlags(given, flags);
  if (missing.length === 0 || typeof process.execve !== 'function') return;
  const args = relaunchArgs(missing);
  try {
    process.execve(process.execPath, args, process.env);
  } catch (err) {
    console.error(`agent: running with Node's default memory settings (${(err as Error).message})`);
  }
}
