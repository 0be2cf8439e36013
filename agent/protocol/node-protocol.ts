/**
 * The node's side of the agreement protocol, built once per agent: the workload runner over the
 * engine of DOCKER_HOST, the secret files under `<data dir>/secrets`, the trust store, the
 * messaging keys, and the AgreementProtocol worker. DELETE /agreement cancels through it.
 */
import { join } from 'node:path';
import type { MessagingKeys } from '#lib/protocol/keys';
import { REASON } from '#lib/protocol/reason-codes';
import { CONTAINER_CHECK_INTERVAL_S, GOVERNANCE_INTERVAL_S } from '#lib/protocol/timeouts';
import { AgentError } from '../ground/errors.ts';
import { Mutex } from '../ground/mutex.ts';
import type { AgentContext } from '../runtime/context.ts';
import { type Loop, startLoop } from '../runtime/worker-loop.ts';
import { findInstance } from '../services/dependency-store.ts';
import { SAFETY_REREAD_MS } from '../sync/feed.ts';
import { TrustStore } from '../trust/store.ts';
import { engineAt } from '../workloads/engine.ts';
import { ExitCounts } from '../workloads/exit-counts.ts';
import { type ExitWatch, watchExits } from '../workloads/exit-watch.ts';
import { agentHostAccess } from '../workloads/host-guard.ts';
import { type WorkloadEvent, WorkloadRunner } from '../workloads/runner.ts';
import { SecretFiles } from '../workloads/secret-files.ts';
import { loadOrCreateKeys } from './keys.ts';
import type { Protocol, ProtocolTimings } from './protocol.ts';
import { activeAgreements, agreementSource, findAgreement } from './records.ts';
import { finishTermination, startTermination } from './terminate.ts';
import { PROTOCOL_WORKER, protocolRound } from './worker.ts';

export interface NodeProtocol {
  /** DELETE /agreement/{id}: cancel 105; 404 when no active agreement has that id. */
  cancelByUser(agreementId: string): void;
  containersOf(agreementId: string): ReturnType<WorkloadRunner['containers']>;
  /** The Exchange poll's feed named the node's mailbox: read it next round (now). */
  mailArrived(): void;
  /** An agreement accepted and not yet finalized: the Exchange poll keeps its minimum interval. */
  negotiating(): boolean;
  /** Starts the worker (agent start). */
  start(): void;
  /**
   * Watches the engine for workload containers that exit: counted for the container check, and
   * told to `onExit` (the node status worker's cue).
   */
  watchExits(onExit: (containerId?: string) => void): ExitWatch;
  /** Stops the worker, then waits for the work it started. */
  stop(): Promise<void>;
  /**
   * Unregistration: every active agreement ends with 116 (the agbot is told, the Exchange row and
   * the containers go); waits for those terminations, each bounded by the Exchange client's timeouts.
   */
  endAll(): Promise<void>;
  /** For tests: the protocol's parts. */
  readonly parts: Protocol;
}

const DEFAULT_TIMINGS: ProtocolTimings = {
  governanceMs: GOVERNANCE_INTERVAL_S * 1000,
  containerCheckMs: CONTAINER_CHECK_INTERVAL_S * 1000,
  // The Exchange poll asks for a read when its feed names the mailbox, at start and after an outage.
  messagesFallbackMs: SAFETY_REREAD_MS,
};

export function createNodeProtocol(ctx: AgentContext, timings: Partial<ProtocolTimings> = {}): NodeProtocol {
  const secretFiles = new SecretFiles(join(ctx.config.dataDir, 'secrets'));
  let keys: Promise<MessagingKeys> | undefined;
  const p: Protocol = {
    ctx,
    runner: new WorkloadRunner(
      engine(ctx, 60_000),
      secretFiles,
      (e) => report(p, e),
      agentHostAccess(ctx.config),
    ),
    secretFiles,
    trust: new TrustStore(ctx.config.trustDir ?? join(ctx.config.dataDir, 'trust'), ctx.now),
    keys: () => {
      keys ??= loadOrCreateKeys(ctx.config.dataDir).catch((error: unknown) => {
        keys = undefined;
        throw error;
      });
      return keys;
    },
    timings: {
      ...DEFAULT_TIMINGS,
      ...(ctx.config.containerCheckMs ? { containerCheckMs: ctx.config.containerCheckMs } : {}),
      ...timings,
    },
    starting: new Map(),
    terminating: new Map(),
    imageFailed: new Set(),
    exits: new ExitCounts(),
    dependencyLock: new Mutex(),
  };
  let loop: Loop | undefined;
  const clock = { lastMailboxRead: 0, lastContainerCheck: ctx.now(), mailWaiting: false };
  return {
    parts: p,
    containersOf: (agreementId) => p.runner.containers(agreementId),
    mailArrived() {
      clock.mailWaiting = true;
      loop?.wake();
    },
    negotiating: () => activeAgreements(ctx.store).some((a) => a.agreement_finalized_time === 0),
    cancelByUser(agreementId) {
      const found = findAgreement(ctx.store, agreementId);
      if (!found || found.archived || found.agreement_terminated_time > 0)
        throw new AgentError(404, 'no agreements in local database', 'agreement');
      startTermination(p, agreementId, REASON.userRequested);
    },
    start() {
      ctx.workers.set(PROTOCOL_WORKER, 'added');
      loop = startLoop({
        name: PROTOCOL_WORKER,
        registry: ctx.workers,
        log: ctx.log,
        intervalMs: ctx.config.pollIntervalMs,
        retryMinMs: ctx.config.retryMinMs,
        retryMaxMs: ctx.config.retryMaxMs,
        tick: () => protocolRound(p, clock),
      });
    },
    watchExits(onExit) {
      // No request timeout: the events stream is idle while nothing exits.
      const counted = (containerId?: string) => {
        if (containerId) p.exits.exited(containerId);
        onExit(containerId);
      };
      return watchExits(engine(ctx), counted, {
        log: ctx.log,
        retryMinMs: ctx.config.retryMinMs,
        retryMaxMs: ctx.config.retryMaxMs,
      });
    },
    async endAll() {
      const ending = activeAgreements(ctx.store).map((a) => {
        startTermination(p, a.current_agreement_id, REASON.nodeUnconfigured);
        return finishTermination(p, a.current_agreement_id);
      });
      await Promise.all(ending);
    },
    async stop() {
      await loop?.stop();
      await Promise.allSettled([...p.starting.values(), ...p.terminating.values()]);
    },
  };
}

/** The engine of DOCKER_HOST; a DOCKER_HOST that is no unix socket is logged and Docker's default used. */
function engine(ctx: AgentContext, timeoutMs?: number) {
  try {
    return engineAt(process.env.DOCKER_HOST, timeoutMs);
  } catch (error) {
    ctx.log.error('container engine not usable', { reason: (error as Error).message });
    return engineAt('unix:///var/run/docker.sock', timeoutMs);
  }
}

/** Workload events in upstream's words (docs/protocol.md#running-the-workload, #workload-events); never a secret value. */
function report(p: Protocol, event: WorkloadEvent): void {
  const agreement = findAgreement(p.ctx.store, event.agreementId);
  // Events of a dependency instance carry its key: named by the service it runs.
  const instance = agreement ? undefined : findInstance(p.ctx.store, event.agreementId);
  const service = agreement
    ? `${agreement.workload_to_run.org}/${agreement.workload_to_run.url}`
    : instance
      ? `${instance.org}/${instance.url}`
      : event.agreementId;
  const source = agreement ? agreementSource(agreement) : { agreement_id: event.agreementId };
  const add = (severity: 'info' | 'warning' | 'error', code: string, message: string) =>
    p.ctx.events.add(severity, code, message, 'agreement', source);
  switch (event.kind) {
    case 'image_loaded':
      return void add('info', 'image_loaded', `Image loaded for ${service}.`);
    case 'container_running':
      return void add(
        'info',
        'container_running',
        `Workload service containers for ${service} are up and running.`,
      );
    case 'error_image_load':
      p.imageFailed.add(event.agreementId);
      return void add(
        'error',
        'error_image_load',
        `Error loading image for ${service}. Reason: ${event.reason}`,
      );
    case 'error_start_container':
      return void add('error', 'error_start_container', `Error starting containers: ${event.reason}`);
    case 'image_local_fallback':
      return void add(
        'warning',
        'image_local_fallback',
        `Image ${event.image} could not be pulled; the local copy is used.`,
      );
    case 'log_driver_fallback':
      return void add(
        'warning',
        'log_driver_fallback',
        `Log driver ${event.driver} failed for ${event.container}; the engine's default is used.`,
      );
  }
}
