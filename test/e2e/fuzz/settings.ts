/**
 * The fuzz budget and seed, from the environment:
 *
 * - `FUZZ_SEED`: fast-check's seed (an integer). Fixed by default so CI runs the same requests
 *   every time; printed at the start, and a failure prints the one command that replays it.
 * - `FUZZ_RUNS`: how many generated requests (default 400: about 30 s of requests on 2 cores, after
 *   about a minute of server start and seeding).
 */
export const DEFAULT_SEED = 20_261_123;
export const DEFAULT_RUNS = 400;

function integerFrom(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value)) throw new Error(`${name} must be an integer, not '${raw}'`);
  return value;
}

export const fuzzSeed = (): number => integerFrom('FUZZ_SEED', DEFAULT_SEED);
export const fuzzRuns = (): number => integerFrom('FUZZ_RUNS', DEFAULT_RUNS);

/** The command that replays a run of `file`: the same seed and budget send the same requests. */
export const replayCommand = (file: string, seed: number, runs: number): string =>
  `FUZZ_SEED=${seed} FUZZ_RUNS=${runs} npx vitest run ${file}`;
