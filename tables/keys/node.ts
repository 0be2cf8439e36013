/**
 * A node's partition (`NODE#<org>/<id>`): the node, its policy and liveness, and its children
 * (agreements, status, errors, management statuses, mailbox), so deleting the node takes them all.
 */
export const nodeKeys = {
  record: (org: string, id: string) => ({ pk: `NODE#${org}/${id}`, sk: 'NODE' }),
  /** Nothing but the liveness sorts between `NODE` and `POLICY`: GET node policy reads the three with one Query. */
  policy: (org: string, id: string) => ({ pk: `NODE#${org}/${id}`, sk: 'POLICY' }),
  /** A node's liveness (tables/node/liveness.ts): sorts right after `NODE`, so one Query reads both. */
  heartbeat: (org: string, id: string) => ({ pk: `NODE#${org}/${id}`, sk: 'NODE#HEARTBEAT' }),
  /** A management-policy status (`policy` is `<org>/<name>`). */
  managementStatus: (org: string, id: string, policy: string) => ({
    pk: `NODE#${org}/${id}`,
    sk: `MGMTSTATUS#${policy}`,
  }),
  agreement: (org: string, id: string, agreementId: string) => ({
    pk: `NODE#${org}/${id}`,
    sk: `AGREEMENT#${agreementId}`,
  }),
  status: (org: string, id: string) => ({ pk: `NODE#${org}/${id}`, sk: 'STATUS' }),
  errors: (org: string, id: string) => ({ pk: `NODE#${org}/${id}`, sk: 'ERRORS' }),
  /** A message an agbot sent to the node, oldest first (ids zero-padded to sort numerically). */
  message: (org: string, id: string, msgId: number) => ({
    pk: `NODE#${org}/${id}`,
    sk: `MSG#${String(msgId).padStart(12, '0')}`,
  }),
  /** The node mailbox's state (last id, messages stored), as `MSGSEQ` is the agbot mailbox's (tables/mailbox/). */
  messageSeq: (org: string, id: string) => ({ pk: `NODE#${org}/${id}`, sk: 'MSGSEQ' }),
  /** Sort-key prefixes of the node's children (for `begins_with` queries). */
  childPrefix: { managementStatus: 'MGMTSTATUS#', agreement: 'AGREEMENT#' } as const,
  /** gsi1: an org's nodes. */
  orgIndex: (org: string) => `ORG#${org}#NODES`,
  /** Where a page of gsi1 resumes: right after the node `id` (its table key and its index key). */
  orgIndexAfter: (org: string, id: string) => ({
    pk: `NODE#${org}/${id}`,
    sk: 'NODE',
    gsi1pk: `ORG#${org}#NODES`,
    gsi1sk: id,
  }),
  /**
   * gsi2: the nodes of an org that name `pattern` ("" for policy nodes), sorted by `searchSort`
   * (tables/node/search.ts).
   */
  searchIndex: (org: string, pattern: string) => `SEARCH#${org}#${pattern}`,
  /** gsi2's sort key: the node's lastUpdated (policy searches page by it), then its id. */
  searchSort: (lastUpdated: string, id: string) => `${lastUpdated}#${id}`,
};
