import type { Ctx } from '../context.ts';
import { EXIT, fatal } from '../errors.ts';
import { printJson } from '../output.ts';

type Json = Record<string, unknown>;

/**
 * `hzn agreement list [id]` and `hzn agbot agreement list [id]`, as upstream prints both: the
 * whole agreement with that id (exit 1 when there is none), else each one's summary.
 */
export function printAgreements(
  ctx: Ctx,
  agreements: Json[],
  id: string | undefined,
  summary: (agreement: Json) => Json,
): void {
  if (!id) {
    printJson(ctx.io, agreements.map(summary));
    return;
  }
  const found = agreements.find((a) => a.current_agreement_id === id);
  if (!found) throw fatal(EXIT.CLI_INPUT_ERROR, `agreement id ${id} not found`);
  printJson(ctx.io, found);
}
