/**
 * OSGi version ranges as upstream uses them (anax semanticversion): `1.2.3` means
 * `[1.2.3,INFINITY)`; `[` / `]` include an end, `(` / `)` exclude it; versions have 1-3 numeric
 * parts (missing ones are 0) and an optional `-prerelease`, which sorts before the release.
 *
 * STAND-IN, REPLACE AT MERGE: the catalog owns version ranges. Branch `services` (commit 7133cc0)
 * adds `lib/catalog/version-range.ts` with the same names (`versionInRange`, `isValidVersion`,
 * `isValidVersionRange`); it was not on main when this was written. At merge, delete this file and
 * point the imports of constraint-eval.ts and service-match.ts at `#lib/catalog/version-range`
 * (and allow that import in test/unit/protocol/module-boundary.test.ts).
 */
const INFINITY = 'INFINITY';
const VERSION = /^(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z.-]+))?$/;

interface Version {
  parts: [number, number, number];
  prerelease: string;
}

function parseVersion(text: string): Version | undefined {
  const m = VERSION.exec(text);
  if (!m) return undefined;
  return { parts: [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)], prerelease: m[4] ?? '' };
}

export const isValidVersion = (text: string): boolean => parseVersion(text) !== undefined;

function compare(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++)
    if (a.parts[i] !== b.parts[i]) return (a.parts[i] as number) - (b.parts[i] as number);
  if (a.prerelease === b.prerelease) return 0;
  if (a.prerelease === '') return 1;
  if (b.prerelease === '') return -1;
  return a.prerelease < b.prerelease ? -1 : 1;
}

interface Range {
  start: Version;
  startInclusive: boolean;
  end: Version | typeof INFINITY;
  endInclusive: boolean;
}

function parseRange(text: string): Range | undefined {
  if (text === '' || /\s/.test(text)) return undefined;
  const single = parseVersion(text);
  if (single) return { start: single, startInclusive: true, end: INFINITY, endInclusive: false };
  const m = /^([[(])([^,]+),([^,]+)([\])])$/.exec(text);
  if (!m) return undefined;
  const start = parseVersion(m[2] as string);
  const end = m[3] === INFINITY ? INFINITY : parseVersion(m[3] as string);
  if (!start || !end) return undefined;
  return { start, startInclusive: m[1] === '[', end, endInclusive: m[4] === ']' };
}

export const isValidVersionRange = (text: string): boolean => parseRange(text) !== undefined;

/** Whether `version` lies in `range`; false when either does not parse. */
export function versionInRange(version: string, range: string): boolean {
  const v = parseVersion(version);
  const r = parseRange(range);
  if (!v || !r) return false;
  const fromStart = compare(v, r.start);
  if (fromStart < 0 || (fromStart === 0 && !r.startInclusive)) return false;
  if (r.end === INFINITY) return true;
  const toEnd = compare(v, r.end);
  return toEnd < 0 || (toEnd === 0 && r.endInclusive);
}
