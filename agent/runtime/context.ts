import type { ContainerInfo } from 'dockerode';
import type { Logger } from '#lib/json-logger';
import type { EventLog } from '../events/eventlog.ts';
import type { ExchangeClient } from '../exchange/client.ts';
import type { HeartbeatIntervalsRecord } from '../exchange/types.ts';
import type { AgentConfig } from '../ground/config.ts';
import type { Mutex } from '../ground/mutex.ts';
import type { Store } from '../store/store.ts';
import type { HostFacts } from './host.ts';
import type { PushKind } from './sync-kinds.ts';
import type { WorkerRegistry } from './worker-registry.ts';

/** What lives only as long as the process. */
export interface Runtime {
  /** The unregistration in progress, if any. */
  unconfiguring: Promise<void> | undefined;
  /** Bumped on every local change of a synced document, so a poll started earlier does not undo it. */
  revision: Record<PushKind, number>;
  /** Whether the last exchange with the Exchange worked (undefined: not tried yet). */
  exchangeReachable: boolean | undefined;
  exchangeVersion: string | undefined;
  /** When the poll last read every synced document (0: not in this process yet). */
  lastFullReadAt: number;
  /** The `heartbeatIntervals` the Exchange holds for the node and its org, as last read. */
  remoteIntervals: { node?: RemoteIntervals; org?: RemoteIntervals };
}

type RemoteIntervals = HeartbeatIntervalsRecord | null;

/** Everything a route, a domain function or a worker needs; built once in agent.ts. */
export interface AgentContext {
  config: AgentConfig;
  store: Store;
  exchange: ExchangeClient;
  events: EventLog;
  host: HostFacts;
  log: Logger;
  workers: WorkerRegistry;
  /** Milliseconds since the epoch (tests may pin it). */
  now: () => number;
  /** Serializes local writes of node state and their pushes to the Exchange. */
  writes: Mutex;
  runtime: Runtime;
  /** Asks the sync worker of that kind to push now (set by the workers; a no-op before they start). */
  wake: (kind: PushKind) => void;
  /**
   * Polls the Exchange now (the one trigger of the poll, which the signal channel's "look now"
   * calls too; a no-op before the workers start).
   */
  pollNow: () => void;
  /** The signal channel (agent/sync/signals.ts; inert before the workers start). */
  signals: AgentSignals;
  /** The NodeStatus worker (agent/status-report), set by agent.ts: GET /eventlog/surface reads it. */
  statusReport?: { surfaced(): unknown[] };
  /** The agreement protocol (agent/protocol), set by agent.ts once the context exists. */
  protocol?: {
    cancelByUser(agreementId: string): void;
    /** The feed named the node's mailbox (or the poll could not tell): read it next round. */
    mailArrived(): void;
    /** Whether an agreement is being negotiated (accepted, not yet finalized): poll at the minimum. */
    negotiating(): boolean;
    endAll(): Promise<void>;
    /** The engine's entries for an agreement's containers. */
    containersOf(agreementId: string): Promise<ContainerInfo[]>;
  };
}

export interface AgentSignals {
  /** What the last poll announced: opens, moves or closes the channel. */
  announced(url: string | undefined): void;
  /** Whether the channel is open now (the poll may then be slow). */
  connected(): boolean;
}

export const NO_SIGNALS: AgentSignals = { announced: () => {}, connected: () => false };

export function newRuntime(): Runtime {
  return {
    unconfiguring: undefined,
    revision: { userInput: 0, policy: 0, services: 0, management: 0 },
    exchangeReachable: undefined,
    exchangeVersion: undefined,
    lastFullReadAt: 0,
    remoteIntervals: {},
  };
}
