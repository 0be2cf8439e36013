/** Worker statuses as GET /status/workers spells them (docs/agent.md#endpoints). */
type WorkerStatus =
  | 'added'
  | 'started'
  | 'initialized'
  | 'initialization failed'
  | 'terminating'
  | 'terminated';

interface WorkerEntry {
  name: string;
  status: WorkerStatus;
  subworker_status: Record<string, WorkerStatus>;
}

const LOG_LIMIT = 500;

/** Backs GET /status/workers: each worker's status and a log of every change. */
export class WorkerRegistry {
  private readonly workers = new Map<string, WorkerEntry>();
  private readonly log: string[] = [];
  private readonly rounds = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  set(name: string, status: WorkerStatus): void {
    const entry = this.workers.get(name) ?? { name, status, subworker_status: {} };
    entry.status = status;
    this.workers.set(name, entry);
    this.record(`Worker ${name}: ${status}.`);
  }

  setSubworker(name: string, sub: string, status: WorkerStatus): void {
    const entry = this.workers.get(name);
    if (!entry) throw new Error(`unknown worker ${name}`);
    entry.subworker_status[sub] = status;
    this.record(`Worker ${name}: subworker ${sub} ${status}.`);
  }

  /** A worker (or one of its periodic passes) finished a round, failed or not. */
  roundDone(name: string): void {
    this.rounds.set(name, this.roundsOf(name) + 1);
  }

  /** Rounds finished since the agent started: what tests wait on instead of a time. */
  roundsOf(name: string): number {
    return this.rounds.get(name) ?? 0;
  }

  snapshot() {
    return {
      workers: Object.fromEntries(
        [...this.workers].map(([name, e]) => [name, { ...e, subworker_status: { ...e.subworker_status } }]),
      ),
      worker_status_log: [...this.log],
    };
  }

  private record(line: string): void {
    this.log.push(`${stamp(new Date(this.now()))} ${line}`);
    if (this.log.length > LOG_LIMIT) this.log.splice(0, this.log.length - LOG_LIMIT);
  }
}

/** `2006-01-02 15:04:05` in local time, as upstream's log lines. */
function stamp(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}
