import { forEachLimited } from '../kernel/for-each-limited.ts';
import { sweepPatternKeys } from './key-records.ts';
import { deletePattern, listOrgPatterns } from './records.ts';

/** The patterns' part of the org and user cascades (tables/cascade.ts runs them). */

/** An org's patterns with their keys (no change rows: the org's feed goes with it). */
export async function deleteOrgPatterns(org: string): Promise<void> {
  await forEachLimited(await listOrgPatterns(org, 'all'), async (pattern) => {
    await deletePattern(pattern, { recordChange: false });
    await sweepPatternKeys(org, pattern.name);
  });
}

/**
 * Deletes the patterns `owner` (`org/username`) owns, with their keys and change rows. Patterns
 * are only ever in their org (another org's admin cannot take one over, docs/compatibility.md).
 */
export async function deleteOwnedPatterns(org: string, owner: string): Promise<void> {
  for (const pattern of await listOrgPatterns(org, 'all')) {
    if (pattern.owner !== owner) continue;
    await deletePattern(pattern);
    await sweepPatternKeys(org, pattern.name);
  }
}
