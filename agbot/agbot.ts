import type { AddressInfo } from 'node:net';
import type { AgbotStore } from '#lib/agbot-store/contract';
import type { Logger } from '#lib/json-logger';
import type { AgbotConfig } from './config.ts';
import { agbotExchange } from './exchange.ts';
import { messagingKeys } from './keys.ts';
import { DEFAULT_SETTINGS, type RoundContext, type RoundSettings } from './rounds/context.ts';
import { protocolRound } from './rounds/round.ts';
import { agbotSignals } from './signals.ts';
import { type AgbotStatus, statusApi } from './status-api.ts';
import { SqliteAgbotStore } from './store/sqlite-store.ts';

export type { RoundContext } from './rounds/context.ts';

export type Round = (context: RoundContext) => Promise<void>;

/** A round that only keeps the agbot's record alive (tests of the process frame use it). */
export const heartbeatRound: Round = async ({ exchange }) => {
  await exchange.heartbeat();
};

export interface Agbot {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** The status API's port (0 before start). */
  port(): number;
  status(): AgbotStatus;
  /** Exchange requests made since start (the bench counts an idle round's). */
  exchangeRequests(): number;
}

/**
 * One agbot process: opens its store, creates and publishes its messaging key, serves its status
 * API, and runs a round every poll interval. A round never overlaps the next; a failed round is
 * logged and the next one runs at the usual time. `stop` lets a running round finish first.
 */
export function createAgbot(options: {
  config: AgbotConfig;
  log: Logger;
  round?: Round;
  settings?: Partial<RoundSettings>;
  now?: () => number;
  /** Where its state lives: by default the SQLite file in the data dir (closed by `stop`). */
  openStore?: (config: AgbotConfig) => AgbotStore;
}): Agbot {
  const { config, log } = options;
  const round = options.round ?? protocolRound;
  const settings: RoundSettings = {
    ...DEFAULT_SETTINGS,
    serveAll: config.serveAll,
    ...(config.protocolTimeoutS === undefined ? {} : { protocolTimeoutS: config.protocolTimeoutS }),
    ...options.settings,
  };
  const store = (options.openStore ?? ((c: AgbotConfig) => SqliteAgbotStore.open(c.dataDir)))(config);
  const exchange = agbotExchange({
    baseUrl: config.exchangeUrl,
    org: config.org,
    id: config.id,
    token: config.token,
    timeoutMs: config.requestTimeoutMs,
  });
  const state: AgbotStatus = { org: config.org, id: config.id, exchangeUrl: config.exchangeUrl, rounds: 0 };
  const api = statusApi(() => ({ ...state, exchangeRequests: exchange.requests() }), store);
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  /** A signal came while a round ran: run another as soon as it ends. */
  let again = false;
  const signals = agbotSignals(config, exchange, log, () => wake());
  let context: RoundContext | undefined;

  async function runRound(context: RoundContext): Promise<void> {
    try {
      await round(context);
      delete state.lastError;
    } catch (error) {
      state.lastError = (error as Error).message;
      log.warn('round failed', { error: state.lastError });
    }
    state.rounds += 1;
    state.lastRoundAt = new Date().toISOString();
    signals.announced(exchange.signalsUrl());
  }

  function schedule(context: RoundContext, delayMs = config.pollIntervalMs): void {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      again = false;
      running = runRound(context).finally(() => {
        running = undefined;
        schedule(context, again ? 0 : config.pollIntervalMs);
      });
    }, delayMs);
  }

  /** "Look now": the next round starts at once (after the running one, if any). */
  function wake(): void {
    if (!context || stopped) return;
    if (running) again = true;
    else schedule(context, 0);
  }

  return {
    async start() {
      const keys = await messagingKeys(store);
      await exchange.publishPublicKey(keys.publishedPublicKey);
      await api.listen({ host: config.host, port: config.port });
      log.info('agbot started', {
        agbot: `${config.org}/${config.id}`,
        port: (api.server.address() as AddressInfo).port,
      });
      context = {
        config,
        store,
        exchange,
        keys,
        log,
        now: options.now ?? Date.now,
        settings,
        memory: {
          servedOrgs: new Set(),
          servedOrgsLoaded: false,
          lastMailboxAt: 0,
          nodeHealthCheckedAt: new Map(),
        },
      };
      const first = context;
      running = runRound(first).finally(() => {
        running = undefined;
        schedule(first, again ? 0 : config.pollIntervalMs);
      });
    },
    async stop() {
      stopped = true;
      signals.stop();
      clearTimeout(timer);
      await running;
      await api.close();
      exchange.close();
      await store.close();
    },
    port: () => (api.server.listening ? (api.server.address() as AddressInfo).port : 0),
    exchangeRequests: () => exchange.requests(),
    status: () => ({ ...state }),
  };
}
