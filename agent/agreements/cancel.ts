import { AgentError } from '../ground/errors.ts';
import type { AgentContext } from '../runtime/context.ts';
import { type Agreement, isArchived, loadAgreements, saveAgreement } from './store.ts';

/** Upstream's Basic-protocol termination reasons. */
const TERMINATION = {
  userRequested: { code: 105, description: 'user requested' },
  nodeShutdown: { code: 116, description: 'node shutdown' },
} as const;

type Reason = (typeof TERMINATION)[keyof typeof TERMINATION];

/**
 * DELETE /agreement/{id}: archives the active agreement with that id, recording the reason and
 * the time. No workloads run yet, so termination completes at once. 404 when none is active.
 */
export function cancelAgreement(ctx: AgentContext, id: string): Agreement {
  const found = loadAgreements(ctx.store).find((a) => a.current_agreement_id === id && !isArchived(a));
  if (!found) throw new AgentError(404, 'no agreements in local database', 'agreement');
  const archived = terminate(ctx, found, TERMINATION.userRequested);
  saveAgreement(ctx.store, archived);
  return archived;
}

/** Unregistration: every active agreement ends (reason: node shutdown). */
export function archiveAllAgreements(ctx: AgentContext): void {
  for (const agreement of loadAgreements(ctx.store)) {
    if (!isArchived(agreement)) saveAgreement(ctx.store, terminate(ctx, agreement, TERMINATION.nodeShutdown));
  }
}

function terminate(ctx: AgentContext, agreement: Agreement, reason: Reason): Agreement {
  const now = Math.floor(ctx.now() / 1000);
  const url = agreement.workload_to_run.url;
  const why = `Termination reason: ${reason.description}`;
  const source = {
    agreement_id: agreement.current_agreement_id,
    workload_to_run: agreement.workload_to_run,
    dependent_services: agreement.dependent_services,
    consumer_id: agreement.consumer_id,
    agreement_protocol: agreement.agreement_protocol,
  };
  ctx.events.add(
    'info',
    'cancel_agreement',
    `Start terminating agreement for ${url}. ${why}`,
    'agreement',
    source,
  );
  ctx.events.add(
    'info',
    'agreement_canceled',
    `Agreement for ${url} terminated. ${why}`,
    'agreement',
    source,
  );
  return {
    ...agreement,
    archived: true,
    agreement_terminated_time: now,
    workload_terminated_time: now,
    terminated_reason: reason.code,
    terminated_description: reason.description,
  };
}
