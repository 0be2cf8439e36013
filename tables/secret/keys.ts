/** The secrets manager: all of an org's secrets in one partition, by full name. */
export const secretKeys = {
  record: (org: string, name: string) => ({ pk: `SECRETS#${org}`, sk: name }),
  /** gsi1: a node's secrets, org-node and user-node ones (gsi1sk = the secret's name): deleting the node finds them. */
  nodeIndex: (org: string, node: string) => `ORG#${org}#NODE#${node}#SECRETS`,
};
