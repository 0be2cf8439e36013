import { describe, expect, it } from 'vitest';
import {
  DEFAULT_HEARTBEAT_INTERVALS,
  nextHeartbeatInterval,
  resolveHeartbeatIntervals,
} from '#lib/protocol/heartbeat-intervals';

describe('heartbeat intervals (node, else org, else settings)', () => {
  it('defaults to upstream 20 s, +20 s, at most 120 s', () => {
    expect(resolveHeartbeatIntervals(undefined, null)).toEqual(DEFAULT_HEARTBEAT_INTERVALS);
    expect(
      resolveHeartbeatIntervals({ minInterval: 0, maxInterval: 0, intervalAdjustment: 0 }, undefined),
    ).toEqual(DEFAULT_HEARTBEAT_INTERVALS);
  });

  it('takes the node’s over the org’s, and the org’s over the settings', () => {
    const org = { minInterval: 30, maxInterval: 300, intervalAdjustment: 30 };
    expect(resolveHeartbeatIntervals(undefined, org)).toEqual(org);
    expect(
      resolveHeartbeatIntervals({ minInterval: 5, maxInterval: 15, intervalAdjustment: 5 }, org),
    ).toEqual({
      minInterval: 5,
      maxInterval: 15,
      intervalAdjustment: 5,
    });
    expect(resolveHeartbeatIntervals({ maxInterval: 10 }, org)).toEqual({
      minInterval: 20,
      maxInterval: 20,
      intervalAdjustment: 20,
    });
  });

  it('grows while idle up to the maximum and drops to the minimum on activity', () => {
    const seen: number[] = [];
    let current = 0;
    for (let i = 0; i < 8; i++) {
      current = nextHeartbeatInterval(current, false, DEFAULT_HEARTBEAT_INTERVALS);
      seen.push(current);
    }
    expect(seen).toEqual([20, 40, 60, 80, 100, 120, 120, 120]);
    expect(nextHeartbeatInterval(120, true, DEFAULT_HEARTBEAT_INTERVALS)).toBe(20);
  });
});
