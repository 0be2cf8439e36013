/**
 * How containers' exits are paced into status looks (exit-pacing.ts), on fake timers: the code is
 * in-process and its holds are the behaviour under test.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ExitPacing } from './exit-pacing.ts';

describe('pacing the looks that exits ask for', () => {
  let looks: number;
  let pacing: ExitPacing;
  beforeEach(() => {
    vi.useFakeTimers();
    looks = 0;
    pacing = new ExitPacing({
      firstHoldMs: 2_000,
      maxHoldMs: 60_000,
      now: Date.now,
      look: () => {
        looks++;
      },
    });
  });
  afterEach(() => {
    pacing.stop();
    vi.useRealTimers();
  });

  it('a first exit is looked at at once, and once more when its hold ends quiet', () => {
    pacing.exited('c1');
    expect(looks).toBe(1);
    expect(pacing.pending()).toBe(true);
    vi.advanceTimersByTime(1_999);
    expect(looks).toBe(1);
    vi.advanceTimersByTime(1);
    expect(looks).toBe(2);
    expect(pacing.pending()).toBe(false);
    vi.advanceTimersByTime(120_000);
    expect(looks).toBe(2);
  });

  it('exits within a hold make one look when it ends; the next hold, twice as long, ends quiet', () => {
    pacing.exited('c1');
    vi.advanceTimersByTime(500);
    pacing.exited('c1');
    pacing.exited('c1');
    expect(looks).toBe(1);
    vi.advanceTimersByTime(1_499);
    expect(looks).toBe(1);
    vi.advanceTimersByTime(1);
    expect(looks).toBe(2);
    expect(pacing.pending()).toBe(true);
    vi.advanceTimersByTime(4_000);
    expect(looks).toBe(3);
    expect(pacing.pending()).toBe(false);
  });

  it('a crash loop settles at one look per longest hold: the holds double up to it', () => {
    pacing.exited('c1');
    // An exit every second for ten minutes, as a container the engine keeps restarting.
    for (let second = 1; second <= 600; second++) {
      vi.advanceTimersByTime(1_000);
      pacing.exited('c1');
    }
    // Looks at 0, 2, 6, 14, 30 and 62 s (holds of 2, 4, 8, 16, 32, then 60 s), then every 60 s.
    expect(looks).toBe(14);
  });

  it('an exit soon after a quiet hold is looked at at once, and held twice as long', () => {
    pacing.exited('c1');
    vi.advanceTimersByTime(3_000);
    expect(looks).toBe(2);
    pacing.exited('c1');
    expect(looks).toBe(3);
    vi.advanceTimersByTime(1_000);
    pacing.exited('c1');
    vi.advanceTimersByTime(2_999);
    expect(looks).toBe(3);
    vi.advanceTimersByTime(1);
    expect(looks).toBe(4);
  });

  it('a container quiet for a whole longest hold after its hold is looked at at once again', () => {
    pacing.exited('c1');
    vi.advanceTimersByTime(1_000);
    pacing.exited('c1');
    vi.advanceTimersByTime(1_000);
    expect(looks).toBe(2);
    // The 4 s hold ends quiet (a look), then 60 s of quiet: the next exit starts afresh.
    vi.advanceTimersByTime(4_000 + 60_000);
    expect(looks).toBe(3);
    pacing.exited('c1');
    expect(looks).toBe(4);
    vi.advanceTimersByTime(500);
    pacing.exited('c1');
    expect(looks).toBe(4);
    vi.advanceTimersByTime(1_500);
    expect(looks).toBe(5);
  });

  it('a container is restarting from its exit until a hold ends without another', () => {
    pacing.exited('c1');
    expect(pacing.restarting()).toEqual(new Set(['c1']));
    vi.advanceTimersByTime(1_000);
    pacing.exited('c1');
    // The first hold saw an exit: the next one (4 s) begins, still restarting.
    vi.advanceTimersByTime(1_000);
    expect(pacing.restarting()).toEqual(new Set(['c1']));
    vi.advanceTimersByTime(3_999);
    expect(pacing.restarting()).toEqual(new Set(['c1']));
    vi.advanceTimersByTime(1);
    expect(pacing.restarting()).toEqual(new Set());
  });

  it('containers are held each on their own', () => {
    pacing.exited('c1');
    pacing.exited('c1');
    pacing.exited('c2');
    expect(looks).toBe(2);
  });

  it('stop drops the looks still due', () => {
    pacing.exited('c1');
    pacing.exited('c1');
    pacing.stop();
    vi.advanceTimersByTime(10_000);
    expect(looks).toBe(1);
    expect(pacing.pending()).toBe(false);
  });
});
