/** An org's partition (`ORG#<org>`): the org, its counters and its agent file versions. */
export const orgKeys = {
  record: (org: string) => ({ pk: `ORG#${org}`, sk: 'ORG' }),
  stats: (org: string) => ({ pk: `ORG#${org}`, sk: 'STATS' }),
  agentFileVersions: (org: string) => ({ pk: `ORG#${org}`, sk: 'AGENTFILEVERSION' }),
  /** gsi1: every org. */
  allIndex: 'ORGS',
  /** gsi1: every org's counters (the `STATS` items). */
  allStatsIndex: 'STATS',
};
