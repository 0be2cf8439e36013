/** Change ids are zero-padded so the sort key orders them numerically. */
const paddedChangeId = (changeId: number) => String(changeId).padStart(16, '0');

/**
 * The change feed (tables/feed/). A write adds a pending row (`PENDINGCHANGES`, sorted by write
 * time); a reader sequences pending rows into numbered rows: one in the org's partition
 * (`CHANGES#<org>`), one in `ALLCHANGES` (readers of every org), and for public changes one in
 * `PUBLICCHANGES` (every org's readers). What nodes read gets copies of its own: a row about one
 * node in that node's partition (`NODEFEED#<org>/<id>`), a row every node of its org may see (the
 * catalog, the org) in `NODESFEED`, so a node's read never walks other nodes' rows. All
 * base-table partitions: a Query of them is strongly consistent, which a reader that must never
 * skip a row needs (a GSI read is not).
 */
export const feedKeys = {
  /** The feed's sequence: the last change id handed out. */
  sequence: () => ({ pk: 'CHANGES', sk: 'SEQ' }),
  /**
   * A copy of the sequence at the head of the pending partition (`#` sorts before any write time),
   * so one Query tells a reader both what is pending and the newest id.
   */
  head: () => ({ pk: 'PENDINGCHANGES', sk: '#HEAD' }),
  pending: (sortKey: string) => ({ pk: 'PENDINGCHANGES', sk: sortKey }),
  ofOrg: (org: string, changeId: number) => ({ pk: `CHANGES#${org}`, sk: paddedChangeId(changeId) }),
  ofAll: (changeId: number) => ({ pk: 'ALLCHANGES', sk: paddedChangeId(changeId) }),
  ofPublic: (changeId: number) => ({ pk: 'PUBLICCHANGES', sk: paddedChangeId(changeId) }),
  /** The sort key of id `changeId`: a Query's bound (ids ≥ it, or between two). */
  sortKeyFrom: (changeId: number) => paddedChangeId(Math.max(0, changeId)),
  /** A row about one node (lib/feed/visibility.ts `aboutANode`), in that node's own feed. */
  ofNode: (org: string, id: string, changeId: number) => ({
    pk: `NODEFEED#${org}/${id}`,
    sk: paddedChangeId(changeId),
  }),
  /** A row every node of its org may see (`sharedWithNodes`), beside those of every other org. */
  ofNodesShared: (changeId: number) => ({ pk: 'NODESFEED', sk: paddedChangeId(changeId) }),
  nodePartition: (org: string, id: string) => `NODEFEED#${org}/${id}`,
  nodesSharedPartition: 'NODESFEED',
  pendingPartition: 'PENDINGCHANGES',
  orgPartition: (org: string) => `CHANGES#${org}`,
  allPartition: 'ALLCHANGES',
  publicPartition: 'PUBLICCHANGES',
};
