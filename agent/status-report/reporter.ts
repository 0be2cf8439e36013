/**
 * The NodeStatus worker (docs/agent.md "Status reported to the Exchange"): writes the node status
 * and the surfaced errors to the Exchange when they changed, never otherwise. A workload event
 * (anything the event log records about an agreement or a service: started, stopped, failed)
 * schedules a look `statusCoalesceMs` later, so a burst of events makes one write; so does a
 * workload container's exit, which the engine's events tell (agent/workloads/exit-watch.ts),
 * paced per container (exit-pacing.ts: a crash loop settles at one look a `statusCheckMs`), and
 * a container within the hold its exit began is reported `restarting` if the engine has it up; the
 * containers are also looked at every `statusCheckMs` (a restart, a missed event). A look costs
 * one container listing on the local engine and, only when something changed, one PUT per
 * document. What the Exchange took last is kept in the store, so a restarted agent writes nothing
 * it wrote already; a PUT that fails is tried again with backoff.
 */
import { LAST_UNREGISTRATION_KEY } from '../events/eventlog.ts';
import { loadRegisteredServices } from '../node/local.ts';
import { credentials, isActive, loadNode, type NodeRecord } from '../node/record.ts';
import { activeAgreements, findAgreement, nowSeconds } from '../protocol/records.ts';
import type { AgentContext } from '../runtime/context.ts';
import { type Loop, startLoop } from '../runtime/worker-loop.ts';
import { loadInstances } from '../services/dependency-store.ts';
import type { StoredEvent } from '../store/store.ts';
import type { WorkloadRunner } from '../workloads/runner.ts';
import { ExitPacing } from './exit-pacing.ts';
import { buildNodeStatus, type NodeStatusReport, sameNodeStatus } from './node-status.ts';
import { dropResolved, foldEvents, type SurfacedError } from './surfaced-errors.ts';

export const STATUS_WORKER = 'NodeStatus';

/** Store keys: what the Exchange holds (per node), the surfaced errors, the last event folded in. */
const KEYS = {
  written: 'statusReport.written',
  errorsWritten: 'statusReport.errorsWritten',
  surfaced: 'statusReport.surfaced',
  eventCursor: 'statusReport.eventCursor',
};

interface Written<T> {
  node: string;
  value: T;
}

export interface StatusReporter {
  /** An event was logged: workload events schedule a look. */
  noticed(event: StoredEvent): void;
  /** A workload container exited (`containerId`), or exits may have gone unseen (none). */
  containerExited(containerId?: string): void;
  /** The errors surfaced now (GET /eventlog/surface shows those not hidden). */
  surfaced(): SurfacedError[];
  start(): void;
  stop(): Promise<void>;
  /** Whether a look is scheduled or under way (tests wait for the quiet before counting). */
  busy(): boolean;
  /** Counts, for tests and the benchmark: looks taken, PUTs of status and of errors. */
  readonly counts: { looks: number; statusWrites: number; errorWrites: number };
}

const WORKLOAD_SOURCES = new Set(['agreement', 'service']);
/** A container's second exit waits at most this long for its look; later ones twice as long each time. */
const EXIT_FIRST_HOLD_MS = 2_000;

export function createStatusReporter(
  ctx: AgentContext,
  runner: () => Pick<WorkloadRunner, 'allContainers'>,
): StatusReporter {
  const counts = { looks: 0, statusWrites: 0, errorWrites: 0 };
  const enabled = ctx.config.statusReport !== false;
  let loop: Loop | undefined;
  let pending: NodeJS.Timeout | undefined;
  /** A look was asked for (the coalescing delay ended) and has not begun; one is under way. */
  let asked = false;
  let looking = false;
  const checkMs = ctx.config.statusCheckMs ?? 60_000;

  function lookSoon(): void {
    if (!loop || pending) return;
    pending = setTimeout(() => {
      pending = undefined;
      asked = true;
      loop?.wake();
    }, ctx.config.statusCoalesceMs ?? 1_000);
  }
  const exits = new ExitPacing({
    firstHoldMs: Math.min(EXIT_FIRST_HOLD_MS, checkMs),
    maxHoldMs: checkMs,
    now: ctx.now,
    look: lookSoon,
  });

  /**
   * Folds the events logged since the last look (of this registration) into the node's surfaced
   * errors and drops the resolved ones.
   */
  function surfacedNow(who: string): SurfacedError[] {
    const cursor = Math.max(
      ctx.store.get<number>(KEYS.eventCursor) ?? 0,
      ctx.store.get<number>(LAST_UNREGISTRATION_KEY) ?? 0,
    );
    const events = ctx.store.events(cursor);
    const kept = ctx.store.get<Written<SurfacedError[]>>(KEYS.surfaced);
    const before = kept?.node === who ? kept.value : [];
    const workloadOf = (id: string) => findAgreement(ctx.store, id)?.workload_to_run;
    const folded = dropResolved(
      foldEvents(before, events, workloadOf),
      activeAgreements(ctx.store),
      nowSeconds(ctx.now),
    );
    const last = events.at(-1);
    if (last) ctx.store.set(KEYS.eventCursor, Number(last.record_id));
    if (kept?.node !== who || JSON.stringify(folded) !== JSON.stringify(before))
      ctx.store.set(KEYS.surfaced, { node: who, value: folded });
    return folded;
  }

  const configured = (node: NodeRecord | undefined): node is NodeRecord =>
    node !== undefined && isActive(node) && node.configstate.state === 'configured';

  async function look(): Promise<void> {
    const node = loadNode(ctx.store);
    if (!configured(node)) return;
    counts.looks++;
    const who = `${node.organization}/${node.id}`;
    const creds = credentials(node);
    const path = `/orgs/${encodeURIComponent(node.organization)}/nodes/${encodeURIComponent(node.id)}`;
    // Taken before the listing: an exit during it starts a hold, whose end is looked at.
    await writeStatus(who, path, creds, exits.restarting());
    const errors = surfacedNow(who);
    const errorsWritten = ctx.store.get<Written<SurfacedError[]>>(KEYS.errorsWritten);
    // Nothing surfaced and nothing written before: nothing to say (anax writes only on a change too).
    const unchanged =
      errorsWritten?.node === who
        ? JSON.stringify(errorsWritten.value) === JSON.stringify(errors)
        : errors.length === 0;
    if (!unchanged) {
      await ctx.exchange.request('PUT', `${path}/errors`, creds, { errors });
      counts.errorWrites++;
      ctx.store.set(KEYS.errorsWritten, { node: who, value: errors });
    }
  }

  async function writeStatus(
    who: string,
    path: string,
    creds: ReturnType<typeof credentials>,
    restarting: ReadonlySet<string>,
  ): Promise<void> {
    const status = buildNodeStatus({
      agreements: activeAgreements(ctx.store),
      instances: loadInstances(ctx.store),
      containers: await runner().allContainers(),
      exited: restarting,
      registered: loadRegisteredServices(ctx.store),
    });
    const written = ctx.store.get<Written<NodeStatusReport>>(KEYS.written);
    // A node that ran nothing yet has nothing to say (anax compares with an empty saved status too).
    const unchangedStatus =
      written?.node === who ? sameNodeStatus(written.value, status) : status.services.length === 0;
    if (unchangedStatus) return;
    await ctx.exchange.request('PUT', `${path}/status`, creds, status);
    counts.statusWrites++;
    ctx.store.set(KEYS.written, { node: who, value: status });
  }

  return {
    counts,
    noticed(event) {
      if (WORKLOAD_SOURCES.has(event.source_type)) lookSoon();
    },
    containerExited(containerId) {
      if (containerId === undefined) lookSoon();
      else exits.exited(containerId);
    },
    busy: () => pending !== undefined || asked || looking || exits.pending(),
    surfaced() {
      const node = loadNode(ctx.store);
      if (!configured(node)) return [];
      return surfacedNow(`${node.organization}/${node.id}`).filter((e) => !e.hidden);
    },
    start() {
      if (!enabled) return;
      ctx.workers.set(STATUS_WORKER, 'added');
      loop = startLoop({
        name: STATUS_WORKER,
        registry: ctx.workers,
        log: ctx.log,
        intervalMs: checkMs,
        retryMinMs: ctx.config.retryMinMs,
        retryMaxMs: ctx.config.retryMaxMs,
        tick: async () => {
          asked = false;
          looking = true;
          try {
            await look();
          } finally {
            looking = false;
          }
        },
      });
    },
    async stop() {
      clearTimeout(pending);
      pending = undefined;
      exits.stop();
      const stopping = loop?.stop();
      loop = undefined;
      await stopping;
    },
  };
}
