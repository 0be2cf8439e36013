/**
 * A node management policy (NMP), by name: its record, the org's list of them, and the list of
 * the node statuses that hang on it (so deleting the NMP finds them without a Scan).
 */
export const managementPolicyKeys = {
  record: (org: string, name: string) => ({ pk: `MGMTPOL#${org}/${name}`, sk: 'MGMTPOL' }),
  /** gsi1: an org's management policies. */
  orgIndex: (org: string) => `ORG#${org}#MGMTPOLS`,
  /** gsi1: the node statuses of one policy (`policy` is `<org>/<name>`), sorted by node id. */
  statusIndex: (policy: string) => `MGMTPOL#${policy}#STATUSES`,
};
