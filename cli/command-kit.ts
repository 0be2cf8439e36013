import type { Command } from 'commander';
import type { Env } from './config.ts';
import type { Ctx } from './context.ts';
import { usage } from './errors.ts';
import type { Io } from './io.ts';

/** What command modules need to declare their commands: the run's I/O and environment. */
export interface Base {
  io: Io;
  env: Env;
}

export type Options = Record<string, string | boolean | string[] | undefined>;
type Action = (ctx: Ctx, args: (string | undefined)[], opts: Options) => Promise<void>;

/**
 * A command group (`exchange`, `agreement`...): its names are `[name, ...aliases]`. Called without
 * a known subcommand it fails as kingpin does.
 */
export function group(parent: Command, names: string[], description: string): Command {
  const [name, ...aliases] = names as [string, ...string[]];
  const cmd = parent.command(name).description(description).aliases(aliases).allowExcessArguments(true);
  cmd.action(() => {
    const given = cmd.args[0];
    if (given !== undefined) throw usage(`expected command but got "${given}"`);
    throw usage(`must select a subcommand of '${names.join(' | ')}'`);
  });
  return cmd;
}

/** A leaf command; `action` gets the context, its declared arguments and every option up the tree. */
export function leaf(parent: Command, names: string[], description: string): Command {
  const [name, ...aliases] = names as [string, ...string[]];
  return parent.command(name).description(description).aliases(aliases).allowExcessArguments(true);
}

export function act(base: Base, cmd: Command, action: Action): Command {
  return cmd.action(async () => {
    const declared = cmd.registeredArguments.length;
    const extra = cmd.args[declared];
    if (extra !== undefined && !cmd.registeredArguments.at(-1)?.variadic)
      throw usage(`unexpected argument '${extra}'`);
    const opts = cmd.optsWithGlobals() as Options;
    const ctx: Ctx = {
      io: base.io,
      env: base.env,
      verbose: opts.verbose === true,
      dryRun: opts.dryRun === true,
    };
    await action(ctx, cmd.processedArgs as (string | undefined)[], opts);
  });
}

/** A repeatable option's collector (`-s a -s b`). */
export const collect = (value: string, previous: string[] | undefined): string[] => [
  ...(previous ?? []),
  value,
];

export const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
