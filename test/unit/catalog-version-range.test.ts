import { describe, expect, it } from 'vitest';
import { isValidVersion, isValidVersionRange, versionInRange } from '#lib/catalog/version-range';

describe('versions and version ranges (docs/exchange-catalog.md#versions-and-ranges)', () => {
  it('accepts N, N.N, N.N.N and infinity only', () => {
    for (const ok of ['1', '1.2', '1.2.3', ' 1.0.0 ', 'INFINITY']) expect(isValidVersion(ok), ok).toBe(true);
    for (const bad of ['1.0.0-beta', '1.2.3.4', 'v1', '1.%', '', '1..2'])
      expect(isValidVersion(bad), bad).toBe(false);
  });

  it('reads one bound as [bound,infinity) and honours inclusive and exclusive ends', () => {
    expect(versionInRange('1.0.0', '1.0.0')).toBe(true);
    expect(versionInRange('9.9', '1.0.0')).toBe(true);
    expect(versionInRange('0.9', '1.0.0')).toBe(false);
    expect(versionInRange('2.0.0', '[1.0.0,2.0.0)')).toBe(false);
    expect(versionInRange('2.0.0', '[1.0.0,2.0.0]')).toBe(true);
    expect(versionInRange('1.0.0', '(1.0.0,2.0.0]')).toBe(false);
    expect(versionInRange('1.0', '[1.0.0,1.0.0]')).toBe(true);
    expect(versionInRange('5', '[1,infinity)')).toBe(true);
  });

  it('treats garbage and empty ranges as containing nothing', () => {
    for (const bad of ['', ',', '[a,b]', '1,2,3', '[1.0.0']) {
      expect(isValidVersionRange(bad), bad).toBe(bad === '[1.0.0');
      if (bad !== '[1.0.0') expect(versionInRange('1.0.0', bad), bad).toBe(false);
    }
    expect(versionInRange('x', '1.0.0')).toBe(false);
  });
});
