/** A deployment (business) policy, by name. */
export const deploymentPolicyKeys = {
  record: (org: string, name: string) => ({ pk: `BUSINESSPOL#${org}/${name}`, sk: 'BUSINESSPOL' }),
  /** gsi1: an org's deployment policies. */
  orgIndex: (org: string) => `ORG#${org}#BUSINESSPOLS`,
};
