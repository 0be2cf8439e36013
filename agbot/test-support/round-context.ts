import { silentLogger } from '#lib/json-logger';
import type { AgbotConfig } from '../config.ts';
import { DEFAULT_SETTINGS, freshRoundMemory, type RoundContext } from '../rounds/context.ts';

/**
 * A round's context for tests that drive one step of a round (its feed, its mailbox, its policy
 * statuses) over a real store: agbot `acme/bot`, the default settings, a fresh memory, a silent
 * log and a clock at 0, each replaced by what the test gives. The Exchange client and the keys are
 * whatever the test gives (empty stand-ins otherwise: a step that uses them fails at once).
 */
export function testRoundContext(parts: Pick<RoundContext, 'store'> & Partial<RoundContext>): RoundContext {
  return {
    config: { org: 'acme', id: 'bot' } as AgbotConfig,
    exchange: {} as RoundContext['exchange'],
    keys: {} as RoundContext['keys'],
    log: silentLogger,
    now: () => 0,
    settings: { ...DEFAULT_SETTINGS },
    memory: freshRoundMemory(),
    ...parts,
  };
}
