import type { Env } from './config.ts';
import type { Io } from './io.ts';

/** What every command gets: the I/O, the effective environment and the global flags. */
export interface Ctx {
  io: Io;
  env: Env;
  verbose: boolean;
  dryRun: boolean;
}

export function verbose(ctx: Ctx, line: string): void {
  if (ctx.verbose) ctx.io.err(`[verbose] ${line}\n`);
}
