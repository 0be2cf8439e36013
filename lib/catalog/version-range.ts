/**
 * Upstream's versions and OSGi version ranges (docs/exchange-catalog.md#versions-and-ranges): a version is `N`, `N.N`,
 * `N.N.N` (missing parts are 0) or `infinity`; a range is `[low,high)` with `[`/`]` inclusive and
 * `(`/`)` exclusive, default `[` and `)`, and one bound alone means `[bound,infinity)`. Anything
 * else is invalid, and an invalid range contains nothing.
 */
type Version = readonly [number, number, number] | 'infinity';

function parseVersion(text: string): Version | undefined {
  const value = text.trim().toLowerCase();
  if (value === 'infinity') return 'infinity';
  if (!/^\d{1,15}(\.\d{1,15}){0,2}$/.test(value)) return undefined;
  const [a = 0, b = 0, c = 0] = value.split('.').map(Number);
  return [a, b, c];
}

export const isValidVersion = (text: string): boolean => parseVersion(text) !== undefined;

/** Orders two valid versions (negative, 0, positive); an invalid one sorts below every valid one. */
export function compareVersions(a: string, b: string): number {
  const va = parseVersion(a);
  const vb = parseVersion(b);
  if (!va || !vb) return va ? 1 : vb ? -1 : 0;
  return compare(va, vb);
}

function compare(a: Version, b: Version): number {
  if (a === 'infinity' || b === 'infinity') return a === b ? 0 : a === 'infinity' ? 1 : -1;
  for (let i = 0; i < 3; i++) {
    const diff = (a[i] as number) - (b[i] as number);
    if (diff !== 0) return diff;
  }
  return 0;
}

interface Range {
  floor: Version;
  floorInclusive: boolean;
  ceiling: Version;
  ceilingInclusive: boolean;
}

function parseVersionRange(text: string): Range | undefined {
  // Split and trim, not a regex over spaces (no backtracking on hostile input).
  const parts = text
    .trim()
    .split(',')
    .map((part) => part.trim());
  if (parts.length === 0 || parts.length > 2 || parts[0] === '') return undefined;
  const [low = '', high = 'infinity)'] = parts;
  const floorInclusive = !low.startsWith('(');
  const ceilingInclusive = high.endsWith(']');
  const floor = parseVersion(low.replace(/^[[(]/, ''));
  const ceiling = parseVersion(high.replace(/[\])]$/, ''));
  if (!floor || !ceiling) return undefined;
  return { floor, floorInclusive, ceiling, ceilingInclusive };
}

export const isValidVersionRange = (text: string): boolean => parseVersionRange(text) !== undefined;

/** Whether `version` lies in `range`; false when either is invalid. */
export function versionInRange(version: string, range: string): boolean {
  const v = parseVersion(version);
  const r = parseVersionRange(range);
  if (!v || !r) return false;
  const aboveFloor = r.floorInclusive ? compare(v, r.floor) >= 0 : compare(v, r.floor) > 0;
  const belowCeiling = r.ceilingInclusive ? compare(v, r.ceiling) <= 0 : compare(v, r.ceiling) < 0;
  return aboveFloor && belowCeiling;
}
