import type { AgbotStore } from '#lib/agbot-store/contract';
import type { Logger } from '#lib/json-logger';
import type { AgbotConfig } from './config.ts';
import type { AgbotExchange } from './exchange.ts';
import { messagingKeys } from './keys.ts';
import { createRolloutHooks } from './rollouts/hooks.ts';
import {
  DEFAULT_SETTINGS,
  freshRoundMemory,
  type RoundContext,
  type RoundSettings,
} from './rounds/context.ts';

/** The round's settings: the defaults, then what the config sets, then the caller's overrides. */
export const roundSettings = (
  config: AgbotConfig,
  overrides: Partial<RoundSettings> = {},
): RoundSettings => ({
  ...DEFAULT_SETTINGS,
  serveAll: config.serveAll,
  ...(config.protocolTimeoutS === undefined ? {} : { protocolTimeoutS: config.protocolTimeoutS }),
  ...overrides,
});

/**
 * What every round of one agbot needs, given its config, store and Exchange client: the messaging
 * key pair (created on first use, kept in the store) published on the agbot's record, and an empty
 * memory. Both the standalone program (agbot.ts, once per start) and the in-stack function
 * (lambda/round.ts, once per warm instance) make it here and then call `protocolRound` with it.
 */
export async function openRoundContext(options: {
  config: AgbotConfig;
  store: AgbotStore;
  exchange: AgbotExchange;
  log: Logger;
  settings: RoundSettings;
  now?: () => number;
}): Promise<RoundContext> {
  const { store, exchange } = options;
  const keys = await messagingKeys(store);
  await exchange.publishPublicKey(keys.publishedPublicKey);
  return {
    config: options.config,
    store,
    exchange,
    keys,
    log: options.log,
    now: options.now ?? Date.now,
    settings: options.settings,
    rollouts: createRolloutHooks(),
    memory: freshRoundMemory(),
  };
}
