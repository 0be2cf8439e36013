import type * as z from 'zod';
import type { AgbotPatternRecord } from '#tables/agbot/pattern-records';
import type { agbotPattern, getAgbotPatternsResponse } from './schemas.ts';

/** A served pattern as upstream returns it (the map key is its id). */
export const patternView = (record: AgbotPatternRecord): z.infer<typeof agbotPattern> => ({
  patternOrgid: record.patternOrgid,
  pattern: record.pattern,
  nodeOrgid: record.nodeOrgid,
  lastUpdated: record.lastUpdated,
});

export const patternsBody = (records: AgbotPatternRecord[]): z.infer<typeof getAgbotPatternsResponse> => ({
  patterns: Object.fromEntries(records.map((record) => [record.patternId, patternView(record)])),
});
