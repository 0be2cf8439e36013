/** Change ids are zero-padded so the sort key orders them numerically. */
const paddedChangeId = (changeId: number) => String(changeId).padStart(16, '0');

/**
 * The change feed (tables/feed/). A write adds a pending row (`PENDINGCHANGES`, sorted by write
 * time); a reader sequences pending rows into numbered rows: one in the org's partition
 * (`CHANGES#<org>`), one in `ALLCHANGES` (readers of every org), and for public changes one in
 * `PUBLICCHANGES` (every org's readers). All base-table partitions: a Query of them is strongly
 * consistent, which a reader that must never skip a row needs (a GSI read is not).
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
  /** The sort key from which a Query reads ids ≥ `changeId`. */
  sortKeyFrom: (changeId: number) => paddedChangeId(Math.max(0, changeId)),
  /**
   * gsi1 of a numbered org row about one node (lib/feed/visibility.ts `aboutANode`), so the console
   * reads a node's last changes with one Query of its own index partition, never the org's feed.
   */
  nodeIndex: (org: string, id: string, changeId: number) => ({
    gsi1pk: `NODECHANGES#${org}/${id}`,
    gsi1sk: paddedChangeId(changeId),
  }),
  nodeIndexPartition: (org: string, id: string) => `NODECHANGES#${org}/${id}`,
  pendingPartition: 'PENDINGCHANGES',
  orgPartition: (org: string) => `CHANGES#${org}`,
  allPartition: 'ALLCHANGES',
  publicPartition: 'PUBLICCHANGES',
};
