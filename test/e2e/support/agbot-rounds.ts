import { expect, vi } from 'vitest';
import { EVENT_MS } from '#test/support/deadlines';
import type { Agbot } from '../../../agbot/agbot.ts';

/**
 * Resolves once the agbot has run `count` whole rounds from now (the round in flight, if any, is
 * not counted): what "nothing happened several rounds later" waits on, instead of a fixed time.
 */
export async function roundsLater(agbot: Pick<Agbot, 'status'>, count: number): Promise<void> {
  const target = agbot.status().rounds + count + 1;
  await vi.waitFor(() => expect(agbot.status().rounds).toBeGreaterThanOrEqual(target), {
    timeout: EVENT_MS,
    interval: 50,
  });
}
