import type { Ctx } from './context.ts';
import { EXIT, ExitRequest, fatal } from './errors.ts';

/**
 * Upstream's confirmation (docs/hzn-behaviour.md#exit-codes-and-prompts): `<question> [y/N]: ` on stdout, one line read;
 * only `y` goes on. Any other answer prints `Exiting.` and ends the run with exit 0; EOF is exit 1.
 */
export async function confirmOrExit(ctx: Ctx, question: string, force: boolean | undefined): Promise<void> {
  if (force) return;
  ctx.io.out(`${question} [y/N]: `);
  const line = await ctx.io.readLine();
  if (line === undefined) throw fatal(EXIT.CLI_INPUT_ERROR, 'Error reading input, error EOF');
  if (line.trim().toLowerCase() === 'y') return;
  ctx.io.out('Exiting.\n');
  throw new ExitRequest(EXIT.OK);
}
