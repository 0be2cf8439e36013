import type { AgbotPatternRecord } from '#tables/agbot-pattern-records';

/** A served pattern as upstream returns it (the map key is its id). */
export const patternView = (record: AgbotPatternRecord) => ({
  patternOrgid: record.patternOrgid,
  pattern: record.pattern,
  nodeOrgid: record.nodeOrgid,
  lastUpdated: record.lastUpdated,
});

export const patternsBody = (records: AgbotPatternRecord[]) => ({
  patterns: Object.fromEntries(records.map((record) => [record.patternId, patternView(record)])),
});
