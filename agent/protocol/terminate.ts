/**
 * The node-side cancel (docs/protocol.md#cancel-on-the-node), for every cause: the termination is recorded at once
 * (a second cancel is a no-op), then finished in the background and resumed by the worker until
 * done: node agreement deleted in the Exchange, secrets forgotten, `cancel` sent to the agbot
 * (unless the agbot cancelled), containers, network and secret files removed, then archived.
 */
import { buildCancel } from '#lib/protocol/build-message';
import { describeReason } from '#lib/protocol/reason-codes';
import { ExchangeUnavailableError } from '../exchange/client.ts';
import { credentials, loadNode } from '../node/record.ts';
import { releaseDependencies } from './dependencies.ts';
import { deleteNodeAgreement } from './exchange-calls.ts';
import type { Protocol } from './protocol.ts';
import {
  agreementSource,
  findAgreement,
  forgetSecrets,
  nowSeconds,
  type ProtocolAgreement,
  updateAgreement,
} from './records.ts';
import { sendAbout } from './send.ts';

interface TerminateOptions {
  /** The agbot asked for it: no cancel goes back, no `cancel_agreement` event (upstream). */
  byAgbot?: boolean;
}

/** Records the termination; undefined when the agreement is unknown or already ending. */
export function startTermination(
  p: Protocol,
  agreementId: string,
  reason: number,
  options: TerminateOptions = {},
): ProtocolAgreement | undefined {
  const { ctx } = p;
  let started = false;
  const agreement = updateAgreement(ctx.store, agreementId, (a) => {
    if (a.archived || a.agreement_terminated_time > 0) return undefined;
    started = true;
    return {
      agreement_terminated_time: nowSeconds(ctx.now),
      terminated_reason: reason,
      terminated_description: describeReason(reason),
      // The agbot's own cancel needs no answer.
      ...(options.byAgbot ? { agreement_protocol_terminated_time: nowSeconds(ctx.now) } : {}),
    };
  });
  if (!agreement || !started) return undefined;
  if (!options.byAgbot) {
    ctx.events.add(
      'info',
      'cancel_agreement',
      `Start terminating agreement for ${agreement.workload_to_run.url}. Termination reason: ${describeReason(reason)}`,
      'agreement',
      agreementSource(agreement),
    );
  }
  void finishTermination(p, agreementId);
  return agreement;
}

/** Runs (or joins) the rest of the termination; failures are left for the worker to retry. */
export function finishTermination(p: Protocol, agreementId: string): Promise<void> {
  const running = p.terminating.get(agreementId);
  if (running) return running;
  const work = finish(p, agreementId)
    .catch((error: unknown) =>
      p.ctx.log.warn('agreement termination will be retried', {
        agreement: agreementId,
        reason: error instanceof Error ? error.message : String(error),
      }),
    )
    .finally(() => p.terminating.delete(agreementId));
  p.terminating.set(agreementId, work);
  return work;
}

async function finish(p: Protocol, agreementId: string): Promise<void> {
  const { ctx } = p;
  const agreement = findAgreement(ctx.store, agreementId);
  if (!agreement || agreement.archived || agreement.agreement_terminated_time === 0) return;
  const node = loadNode(ctx.store);
  const creds = node ? credentials(node) : undefined;
  const url = agreement.workload_to_run.url;
  const source = agreementSource(agreement);

  if (creds && agreement.agreement_accepted_time > 0 && !agreement.exchange_agreement_deleted) {
    try {
      await deleteNodeAgreement(ctx, creds, agreementId);
      updateAgreement(ctx.store, agreementId, () => ({ exchange_agreement_deleted: true }));
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      ctx.events.add(
        'error',
        'error_delete_agreement_in_exchange',
        `Error deleting agreement ${agreementId} in the Exchange: ${detail}`,
        'agreement',
        source,
      );
      throw error;
    }
  }
  forgetSecrets(ctx.store, agreementId);

  if (agreement.agreement_protocol_terminated_time === 0) {
    if (creds) {
      try {
        await sendAbout(p, creds, agreement, buildCancel(agreementId, agreement.terminated_reason));
      } catch (error) {
        // An unreachable Exchange is retried; an agbot that is gone cannot be told.
        if (error instanceof ExchangeUnavailableError) throw error;
      }
    }
    updateAgreement(ctx.store, agreementId, () => ({
      agreement_protocol_terminated_time: nowSeconds(ctx.now),
    }));
  }
  ctx.events.add(
    'info',
    'agreement_canceled',
    `Complete terminating agreement for ${url}. Termination reason: ${agreement.terminated_description}`,
    'agreement',
    source,
  );

  try {
    await p.runner.stop(agreementId);
    // After the parent's containers and link networks: the dependencies it alone used go too.
    await releaseDependencies(p, agreementId);
    ctx.events.add('info', 'container_stopped', `Workload destroyed for ${url}`, 'agreement', source);
  } catch (error) {
    // No engine: nothing of ours runs there now; the worker removes leftovers once it answers.
    ctx.log.warn('workload removal failed', {
      agreement: agreementId,
      reason: error instanceof Error ? error.message : String(error),
    });
    p.secretFiles.remove(agreementId);
    // Its dependency records let go of it; the cleanup pass removes their containers later.
    await releaseDependencies(p, agreementId).catch(() => undefined);
  }
  updateAgreement(ctx.store, agreementId, () => ({
    workload_terminated_time: nowSeconds(ctx.now),
    archived: true,
    current_deployment: {},
  }));
}
