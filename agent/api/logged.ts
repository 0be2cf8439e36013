import { AgentError } from '../ground/errors.ts';
import { loadNode, nodeSource } from '../node/record.ts';
import type { AgentContext } from '../runtime/context.ts';

/**
 * Runs a local write; when it fails for a registered node the failure also goes to the event log
 * (`code`, "Error in <what>. <reason>"), as upstream's agent does.
 */
export async function logged<T>(
  ctx: AgentContext,
  code: string,
  what: string,
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (err) {
    const node = loadNode(ctx.store);
    const unregistered = err instanceof AgentError && err.status === 404;
    if (node && !unregistered) {
      const reason = err instanceof Error ? err.message : String(err);
      ctx.events.node('error', code, `Error in ${what}. ${reason}`, nodeSource(node));
    }
    throw err;
  }
}
