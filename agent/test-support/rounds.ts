import { expect, vi } from 'vitest';
import type { Agent } from '../agent.ts';
import { CONTAINER_CHECK, PROTOCOL_WORKER } from '../protocol/worker.ts';

/**
 * Resolves once the agent's protocol worker has run `rounds` whole rounds from now, and as many
 * container checks as `containerChecks` (a round or check in flight is not counted): what
 * "nothing happened after several rounds" waits on, instead of a fixed time.
 */
export async function protocolRoundsLater(agent: Agent, rounds: number, containerChecks = 0): Promise<void> {
  const { workers } = agent.ctx;
  const wanted = {
    rounds: workers.roundsOf(PROTOCOL_WORKER) + rounds + 1,
    checks: workers.roundsOf(CONTAINER_CHECK) + (containerChecks > 0 ? containerChecks + 1 : 0),
  };
  await vi.waitFor(
    () => {
      expect(workers.roundsOf(PROTOCOL_WORKER)).toBeGreaterThanOrEqual(wanted.rounds);
      expect(workers.roundsOf(CONTAINER_CHECK)).toBeGreaterThanOrEqual(wanted.checks);
    },
    { timeout: 30_000, interval: 50 },
  );
}
