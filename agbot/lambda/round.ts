import { randomUUID } from 'node:crypto';
import { BUILT_IN_AGBOT } from '#lib/agbot/built-in';
import type { AgbotStore } from '#lib/agbot-store/contract';
import { createLogger } from '#lib/json-logger';
import { loadAgbotConfig } from '../config.ts';
import { AgbotExchangeError, agbotExchange } from '../exchange.ts';
import { openRoundContext, roundSettings } from '../round-context.ts';
import type { RoundContext } from '../rounds/context.ts';
import { protocolRound } from '../rounds/round.ts';
import { builtInAgbotToken } from './built-in-token.ts';
import { type FleetSummaryKeeper, fleetSummaryKeeper } from './fleet-summaries.ts';
import { roundLease } from './round-lease.ts';

/**
 * The agbot as a function of the stack (docs/agbot.md, "In the stack"): each invocation, from the
 * table's stream (a change row that concerns the agbot, lib/feed/agbot-stream-filter.ts) or from
 * the schedule (every minute: timeouts, governance, rescans), runs the same round as the
 * standalone program, as the built-in agbot `IBM/agbot`, under the round lease (one round at a
 * time), then runs again while another was asked for meanwhile. A round stops starting searches
 * and proposals a margin before the invocation's timeout and leaves them, with the feed's cursor,
 * to the next invocation (the schedule's at the latest).
 */
interface LambdaContext {
  awsRequestId?: string;
  getRemainingTimeInMillis?(): number;
}

/** Left for the round in flight to finish (a proposal is a few requests of at most 10 s each). */
const MARGIN_MS = 20_000;
const log = createLogger((process.env.HZN_AGBOT_LOG_LEVEL as 'info' | undefined) ?? 'info');

/** Kept while the instance is warm: the token, and the context (keys published, memory). */
interface Warm {
  current?: { token: string; context: RoundContext };
}

/** Where the in-stack agbot keeps its state: the Exchange's table (stack/agbot-round.ts). */
export type OpenStore = (agbot: { org: string; id: string }) => AgbotStore;

/**
 * The function's handler, given where its state lives (the composition root passes the table's).
 * What a warm instance keeps belongs to the handler made here: the module makes one, as Lambda
 * loads it once per instance; a test makes a new one for each cold start.
 */
export const createRoundHandler = (
  openStore: OpenStore,
  fleetSummaries: FleetSummaryKeeper = fleetSummaryKeeper(),
) => {
  const warm: Warm = {};
  return (event: { Records?: unknown[] } | undefined, lambda?: LambdaContext) =>
    runRounds(openStore, warm, event, lambda, fleetSummaries);
};

async function runRounds(
  openStore: OpenStore,
  warm: Warm,
  event: { Records?: unknown[] } | undefined,
  lambda: LambdaContext | undefined,
  fleetSummaries: FleetSummaryKeeper,
) {
  // npm start with EXCHANGE_AGBOT=standalone (or off): the standalone program is the agbot.
  if (['standalone', 'off'].includes(process.env.EXCHANGE_AGBOT ?? '')) return { rounds: 0 };
  const exchangeUrl = process.env.EXCHANGE_API_URL ?? '';
  if (!/^https?:\/\//.test(exchangeUrl)) {
    log.error('EXCHANGE_API_URL is not set to the Exchange API (…/v1): no round');
    return { rounds: 0 };
  }
  const started = Date.now();
  const budget = Math.min(Math.max(lambda?.getRemainingTimeInMillis?.() ?? 60_000, 30_000), 900_000);
  const token = warm.current?.token ?? (await builtInAgbotToken());
  if (!token) {
    log.info('no built-in agbot yet: POST /v1/admin/initdb creates it');
    return { rounds: 0 };
  }
  const lease = roundLease(BUILT_IN_AGBOT, lambda?.awsRequestId ?? randomUUID());
  if (!(await lease.acquire(started, started + budget))) return { rounds: 0, busy: true };
  let rounds = 0;
  let held = true;
  try {
    const context = await roundContext(openStore, warm, exchangeUrl, token);
    context.deadline = started + budget - MARGIN_MS;
    context.fleetSummaries = fleetSummaries;
    for (;;) {
      const outcome = await protocolRound(context);
      rounds += 1;
      if (outcome === 'unfinished' || Date.now() >= context.deadline) break;
      const release = await lease.release(started + budget);
      if (release !== 'again') {
        held = false;
        break;
      }
    }
    log.info('agbot rounds', { rounds, records: event?.Records?.length ?? 0, ms: Date.now() - started });
    return { rounds };
  } catch (error) {
    // A token changed (the agbot deleted and made again by initdb): read it afresh next time.
    if (error instanceof AgbotExchangeError && error.status === 401) forget(warm);
    log.warn('round failed', { error: (error as Error).message });
    throw error;
  } finally {
    if (held) await lease.abandon();
  }
}

async function roundContext(
  openStore: OpenStore,
  warm: Warm,
  exchangeUrl: string,
  token: string,
): Promise<RoundContext> {
  if (warm.current?.token === token) return warm.current.context;
  forget(warm);
  const config = loadAgbotConfig({
    HZN_EXCHANGE_URL: exchangeUrl,
    HZN_AGBOT_ID: `${BUILT_IN_AGBOT.org}/${BUILT_IN_AGBOT.id}`,
    HZN_AGBOT_TOKEN: token,
    HZN_AGBOT_SERVE_ALL: 'true',
    HZN_AGBOT_SIGNALS: 'off',
    HZN_AGBOT_PROTOCOL_TIMEOUT_SECONDS: process.env.HZN_AGBOT_PROTOCOL_TIMEOUT_SECONDS,
  });
  const store = openStore(BUILT_IN_AGBOT);
  const exchange = agbotExchange({
    baseUrl: config.exchangeUrl,
    org: config.org,
    id: config.id,
    token,
    timeoutMs: config.requestTimeoutMs,
  });
  const context = await openRoundContext({ config, store, exchange, log, settings: roundSettings(config) });
  warm.current = { token, context };
  return context;
}

function forget(warm: Warm): void {
  warm.current?.context.exchange.close();
  warm.current?.context.store.close();
  warm.current = undefined;
}
