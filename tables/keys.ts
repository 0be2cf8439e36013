/**
 * Key formats, in one place. Every entity lives in its own partition (keyed by its id) so that
 * heartbeats and updates spread out; `gsi1` groups an org's users, nodes and agbots for listing.
 * See tables/README.md for the chart.
 */
export const keys = {
  org: (org: string) => ({ pk: `ORG#${org}`, sk: 'ORG' }),
  orgStats: (org: string) => ({ pk: `ORG#${org}`, sk: 'STATS' }),
  user: (org: string, username: string) => ({ pk: `USER#${org}/${username}`, sk: 'USER' }),
  node: (org: string, id: string) => ({ pk: `NODE#${org}/${id}`, sk: 'NODE' }),
  nodePolicy: (org: string, id: string) => ({ pk: `NODE#${org}/${id}`, sk: 'POLICY' }),
  agbot: (org: string, id: string) => ({ pk: `AGBOT#${org}/${id}`, sk: 'AGBOT' }),
  agentFileVersions: () => ({ pk: 'ORG#IBM', sk: 'AGENTFILEVERSION' }),
  dropToken: () => ({ pk: 'ADMIN', sk: 'DROPDB_TOKEN' }),
};

/** gsi1 partitions. */
export const indexKeys = {
  allOrgs: 'ORGS',
  allOrgStats: 'STATS',
  orgUsers: (org: string) => `ORG#${org}#USERS`,
  orgNodes: (org: string) => `ORG#${org}#NODES`,
  orgAgbots: (org: string) => `ORG#${org}#AGBOTS`,
};
