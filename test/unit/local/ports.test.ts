import { describe, expect, it } from 'vitest';
import { portBand } from '../../../scripts/local/ports.ts';

describe('port bands', () => {
  it('give each test worker ports no other worker and no other process picks, below the ephemeral range', () => {
    const bands = [Number.NaN, 1, 2, 3, 4, 5, 6, 7].map(portBand);
    for (const [i, a] of bands.entries()) {
      expect(a.from).toBeGreaterThanOrEqual(20_000);
      expect(a.to).toBeLessThanOrEqual(32_768);
      expect(a.to - a.from).toBeGreaterThan(1_000);
      for (const b of bands.slice(i + 1)) expect(a.to <= b.from || b.to <= a.from).toBe(true);
    }
    // More workers than bands share the workers' bands, never the band of other processes.
    expect(portBand(8)).toEqual(portBand(1));
    expect(portBand(0)).toEqual(portBand(Number.NaN));
  });
});
