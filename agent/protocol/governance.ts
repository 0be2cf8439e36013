/**
 * The node's governance pass (docs/protocol.md#proposals-on-the-node, #timeouts, #health-and-retries), every round of the worker:
 * - a replied agreement with no replyack after the governance interval is verified with the
 *   agbot and finalized anyway (upstream does not wait); never accepted within the agreement
 *   timeout → cancel 107;
 * - an accepted agreement whose workload is not running starts it (also after an agent restart);
 *   not started within the prelaunch time → 104;
 * - every container-check interval, a workload with fewer running containers than services → 103,
 *   a dependency instance with fewer → 108 for every agreement using it; a container that exited
 *   more than once since the last check (a crash loop the engine keeps restarting) is not running;
 * - terminations cut short (Exchange or engine down, restart) are resumed;
 * - containers of agreements this node has archived, and dependency instances no agreement uses,
 *   are removed (the engine was down at cancel).
 */
import { isAgreementId } from '#lib/protocol/agreement-id';
import { buildVerify } from '#lib/protocol/build-message';
import { parseDeployment } from '#lib/protocol/deployment';
import { REASON } from '#lib/protocol/reason-codes';
import { MAX_AGREEMENT_PRELAUNCH_S, NODE_AGREEMENT_TIMEOUT_S } from '#lib/protocol/timeouts';
import type { Credentials } from '../exchange/client.ts';
import type { NodeRecord } from '../node/record.ts';
import { exitedAtLeast } from '../workloads/exit-counts.ts';
import { checkDependencies, removeUnused } from './dependencies.ts';
import { acceptAndFinalize } from './finalize.ts';
import type { Protocol } from './protocol.ts';
import {
  activeAgreements,
  agreementSource,
  findAgreement,
  nowSeconds,
  terminatingAgreements,
  termsOf,
} from './records.ts';
import { sendAbout } from './send.ts';
import { finishTermination, startTermination } from './terminate.ts';
import { startWorkload } from './workload.ts';

export async function governAgreements(
  p: Protocol,
  node: NodeRecord,
  creds: Credentials,
  checkContainers: boolean,
): Promise<void> {
  const now = nowSeconds(p.ctx.now);
  const looping = checkContainers ? exitedAtLeast(p.exits.take(), 2) : new Set<string>();
  if (checkContainers) await checkDependencies(p, looping, (id, reason) => startTermination(p, id, reason));
  for (const agreement of activeAgreements(p.ctx.store)) {
    const id = agreement.current_agreement_id;
    if (agreement.agreement_accepted_time === 0) {
      if (now - agreement.agreement_creation_time > NODE_AGREEMENT_TIMEOUT_S) {
        startTermination(p, id, REASON.noReplyAck);
      } else if ((now - agreement.agreement_creation_time) * 1000 >= p.timings.governanceMs) {
        await sendAbout(p, creds, agreement, buildVerify(id));
        await acceptAndFinalize(p, node, creds, agreement);
      }
      continue;
    }
    if (agreement.agreement_finalized_time === 0) {
      await acceptAndFinalize(p, node, creds, agreement);
      continue;
    }
    if (agreement.agreement_execution_start_time === 0) {
      if (now - agreement.agreement_accepted_time > MAX_AGREEMENT_PRELAUNCH_S) {
        startTermination(p, id, REASON.serviceStartTimeout);
      } else if (!p.starting.has(id)) {
        void startWorkload(p, id);
      }
      continue;
    }
    if (checkContainers && !p.starting.has(id)) await checkHealth(p, id, looping);
  }
}

async function checkHealth(p: Protocol, id: string, looping: ReadonlySet<string>): Promise<void> {
  const agreement = findAgreement(p.ctx.store, id);
  const deployment = agreement && termsOf(agreement)?.workloads?.[0]?.deployment;
  if (!deployment) return;
  const health = await p.runner.health(id, parseDeployment(deployment), looping);
  if (health === 'running') return;
  p.ctx.events.add(
    'error',
    'error_start_container',
    `Workload service containers for ${agreement.workload_to_run.org}/${agreement.workload_to_run.url} are not running.`,
    'agreement',
    // The source names the workload's version: the agbot may abandon it for another.
    agreementSource(agreement),
  );
  startTermination(p, id, REASON.serviceTerminated);
}

/** Terminations to finish, and containers left behind by archived agreements. */
export async function cleanUp(p: Protocol): Promise<void> {
  for (const agreement of terminatingAgreements(p.ctx.store))
    await finishTermination(p, agreement.current_agreement_id);
  let onEngine: string[];
  try {
    await removeUnused(p);
    onEngine = await p.runner.agreementsOnEngine();
  } catch {
    return; // no engine now: nothing can be removed, nothing of ours can run there either
  }
  for (const key of onEngine) {
    if (!isAgreementId(key) || p.starting.has(key) || p.terminating.has(key)) continue;
    const agreement = findAgreement(p.ctx.store, key);
    // Only what this node archived: another agent may share the engine.
    if (agreement?.archived) await p.runner.stop(key);
  }
}
