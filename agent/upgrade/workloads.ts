import { workloadState } from '#lib/protocol/workload-report';
import { loadRegisteredServices } from '../node/local.ts';
import { activeAgreements } from '../protocol/records.ts';
import type { AgentContext } from '../runtime/context.ts';
import { loadInstances } from '../services/dependency-store.ts';
import { buildNodeStatus } from '../status-report/node-status.ts';

/**
 * The agreements whose every container runs now, as the node status reports them
 * (status-report/node-status.ts) and by the one rule every reader of those reports uses
 * (lib/protocol/workload-report.ts). An upgrade records them before its swap; the new agent counts
 * `successful` only once they all run again (settle.ts).
 */
export async function runningAgreements(ctx: AgentContext): Promise<string[]> {
  const protocol = ctx.protocol;
  if (!protocol) return [];
  const agreements = activeAgreements(ctx.store);
  const containers = [];
  try {
    for (const a of agreements) containers.push(...(await protocol.containersOf(a.current_agreement_id)));
  } catch {
    return []; // the engine cannot be read: nothing is known to run
  }
  const { services } = buildNodeStatus({
    agreements,
    instances: loadInstances(ctx.store),
    containers,
    registered: loadRegisteredServices(ctx.store),
  });
  return agreements
    .map((a) => a.current_agreement_id)
    .filter((id) => workloadState(services, id) === 'running');
}

/** Of the agreements that ran before the upgrade (`before`), those still active that do not run now. */
export async function notRunningAgain(ctx: AgentContext, before: readonly string[]): Promise<string[]> {
  if (before.length === 0) return [];
  const active = new Set(activeAgreements(ctx.store).map((a) => a.current_agreement_id));
  const running = new Set(await runningAgreements(ctx));
  return before.filter((id) => active.has(id) && !running.has(id));
}
