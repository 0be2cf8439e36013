import { describe, expect, it } from 'vitest';
import { type PaceContext, pollPace } from './workers.ts';

/** The Exchange poll's pace (workers.ts `pollPace`) with upstream's default intervals: 10 s to 120 s by 10 s. */
function pace(state: { connected: boolean; negotiating: boolean }) {
  const ctx = {
    config: {
      pollIntervalMs: 60_000,
      signalledPollMs: 3_600_000,
      heartbeat: { minInterval: 10, maxInterval: 120, intervalAdjustment: 10 },
    },
    runtime: { remoteIntervals: { node: null, org: null } },
    protocol: { negotiating: () => state.negotiating },
    signals: { connected: () => state.connected },
  } as unknown as PaceContext;
  return pollPace(ctx);
}

describe("the agent's poll pace", () => {
  it('polls at the minimum while negotiating without the signal channel, as upstream’s agent does', () => {
    const p = pace({ connected: false, negotiating: true });
    p.saw(false);
    expect([p.nextDelayMs(), p.nextDelayMs()]).toEqual([10_000, 10_000]);
  });

  it('with the channel open, waits for its signal while negotiating: the agbot’s answer wakes it', () => {
    const p = pace({ connected: true, negotiating: true });
    p.saw(false);
    expect(p.nextDelayMs()).toBe(3_600_000);
  });

  it('with the channel open, polls again soon after a poll that saw activity, then hourly', () => {
    const state = { connected: true, negotiating: false };
    const p = pace(state);
    p.saw(true);
    expect(p.nextDelayMs()).toBe(10_000);
    p.saw(false);
    expect(p.nextDelayMs()).toBe(3_600_000);
  });
});
