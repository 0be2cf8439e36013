import { describe, expect, it } from 'vitest';
import type { RoundContext } from './context.ts';
import { nodeMaxHeartbeatS } from './node-heartbeat.ts';

/** A round context whose only Exchange read is the org's intervals (recorded). */
function contextWithOrg(org: () => Promise<unknown>) {
  const reads: string[] = [];
  const ctx = {
    exchange: {
      orgHeartbeatIntervals: (id: string) => {
        reads.push(id);
        return org();
      },
    },
  } as unknown as RoundContext;
  return { ctx, reads };
}

describe('the node maximum interval the agbot sizes its timeouts by', () => {
  it('is the node’s own, without reading its org', async () => {
    const { ctx, reads } = contextWithOrg(async () => ({ maxInterval: 900 }));
    const record = { heartbeatIntervals: { minInterval: 10, maxInterval: 300, intervalAdjustment: 10 } };
    expect(await nodeMaxHeartbeatS(ctx, new Map(), 'acme', record)).toBe(300);
    expect(reads).toEqual([]);
  });

  it('is the org’s when the node sets none (all 0 counts as none), read once per round', async () => {
    const { ctx, reads } = contextWithOrg(async () => ({
      minInterval: 30,
      maxInterval: 600,
      intervalAdjustment: 30,
    }));
    const cache = new Map();
    const unset = { heartbeatIntervals: { minInterval: 0, maxInterval: 0, intervalAdjustment: 0 } };
    expect(await nodeMaxHeartbeatS(ctx, cache, 'acme', unset)).toBe(600);
    expect(await nodeMaxHeartbeatS(ctx, cache, 'acme', {})).toBe(600);
    expect(reads).toEqual(['acme']);
  });

  it('is upstream’s default (120 s) when neither sets one, or the org cannot be read', async () => {
    expect(await nodeMaxHeartbeatS(contextWithOrg(async () => undefined).ctx, new Map(), 'acme', {})).toBe(
      120,
    );
    const refused = contextWithOrg(() => Promise.reject(new Error('403')));
    expect(await nodeMaxHeartbeatS(refused.ctx, new Map(), 'acme', {})).toBe(120);
  });
});
