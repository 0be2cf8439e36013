/**
 * What every step of the node's protocol works with: the agent's context, the workload runner
 * and secret files, the trust store, the messaging keys, and the in-process bookkeeping of work
 * under way (a workload being started, a termination being finished).
 */
import type { MessagingKeys } from '#lib/protocol/keys';
import type { Mutex } from '../ground/mutex.ts';
import type { AgentContext } from '../runtime/context.ts';
import type { TrustStore } from '../trust/store.ts';
import type { ExitCounts } from '../workloads/exit-counts.ts';
import type { WorkloadRunner } from '../workloads/runner.ts';
import type { SecretFiles } from '../workloads/secret-files.ts';

export interface ProtocolTimings {
  /** Governance pass: a replied agreement without replyack is finalized after this (anax: 10 s). */
  governanceMs: number;
  /** Container health check → cancel 103 (anax: 60 s). */
  containerCheckMs: number;
  /** Messages are read at least this often even when the change feed shows none. */
  messagesFallbackMs: number;
}

export interface Protocol {
  ctx: AgentContext;
  runner: WorkloadRunner;
  secretFiles: SecretFiles;
  trust: TrustStore;
  keys(): Promise<MessagingKeys>;
  timings: ProtocolTimings;
  /** Agreements whose workload start is under way. */
  starting: Map<string, Promise<void>>;
  /** Agreements whose termination is being finished. */
  terminating: Map<string, Promise<void>>;
  /** Agreements (or dependency instances) whose image could not be loaded (cancel 113/117, not 103/118). */
  imageFailed: Set<string>;
  /** Workload containers' exits since the last container check (a crash loop fails the check). */
  exits: ExitCounts;
  /** Dependency instances are chosen, started and released one at a time (no two starts of one shared instance). */
  dependencyLock: Mutex;
}
