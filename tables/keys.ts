import { agbotTokenKey } from '#lib/agbot/built-in';
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
  /** A node's liveness (tables/node-liveness.ts): sorts right after `NODE`, so one Query reads both. */
  nodeHeartbeat: (org: string, id: string) => ({ pk: `NODE#${org}/${id}`, sk: 'NODE#HEARTBEAT' }),
  agbot: (org: string, id: string) => ({ pk: `AGBOT#${org}/${id}`, sk: 'AGBOT' }),
  /**
   * What authentication needs of `org/id` as node, agbot and user (one map attribute per kind), so
   * a lookup is one GetItem: written in the same transaction as each of those records (principals.ts).
   */
  principal: (org: string, id: string) => ({ pk: `PRINCIPAL#${org}/${id}`, sk: 'PRINCIPAL' }),
  /** An agbot's children share its partition: one Query lists or deletes each kind. */
  agbotAgreement: (org: string, id: string, agreementId: string) => ({
    pk: `AGBOT#${org}/${id}`,
    sk: `AGREEMENT#${agreementId}`,
  }),
  agbotPattern: (org: string, id: string, patternId: string) => ({
    pk: `AGBOT#${org}/${id}`,
    sk: `PATTERN#${patternId}`,
  }),
  agbotPolicy: (org: string, id: string, policyId: string) => ({
    pk: `AGBOT#${org}/${id}`,
    sk: `BUSINESSPOL#${policyId}`,
  }),
  /** An agbot's paging state of one deployment-policy search (deleted with the agbot). */
  agbotSearchOffset: (org: string, id: string, policyOrg: string, policy: string) => ({
    pk: `AGBOT#${org}/${id}`,
    sk: `SEARCHOFFSET#${policyOrg}/${policy}`,
  }),
  /** Message ids are zero-padded so the sort key orders them numerically (oldest first). */
  agbotMessage: (org: string, id: string, msgId: number) => ({
    pk: `AGBOT#${org}/${id}`,
    sk: `MSG#${String(msgId).padStart(12, '0')}`,
  }),
  /** The built-in agbot's sealed token (lib/agbot/built-in.ts), deleted with the agbot. */
  agbotToken: agbotTokenKey,
  /** The agbot's last message id (UpdateItem ADD): ids increase per agbot and are never reused. */
  agbotMessageSeq: (org: string, id: string) => ({ pk: `AGBOT#${org}/${id}`, sk: 'MSGSEQ' }),
  /** A node's management-policy statuses share its partition (`policy` is `<org>/<name>`). */
  nodeManagementStatus: (org: string, id: string, policy: string) => ({
    pk: `NODE#${org}/${id}`,
    sk: `MGMTSTATUS#${policy}`,
  }),
  /**
   * Beside its owner (`USER#<ownerOrg>/<username>`), an agbot owned from another org (hub admins,
   * root): deleting the owner finds it there, since the org's gsi1 only lists its own users' agbots.
   */
  ownedAgbot: (ownerOrg: string, username: string, org: string, id: string) => ({
    pk: `USER#${ownerOrg}/${username}`,
    sk: `OWNS#AGBOT#${org}/${id}`,
  }),
  agentFileVersions: (org: string) => ({ pk: `ORG#${org}`, sk: 'AGENTFILEVERSION' }),
  dropToken: () => ({ pk: 'ADMIN', sk: 'DROPDB_TOKEN' }),
  /** Written when the principal backfill (identity/backfill.ts) finished on this table. */
  principalsBackfilled: () => ({ pk: 'ADMIN', sk: 'PRINCIPALS_BACKFILLED' }),
  /** The change feed's sequence: the last change id handed out (tables/changes.ts). */
  changeSequence: () => ({ pk: 'CHANGES', sk: 'SEQ' }),
  /**
   * A copy of the sequence at the head of the pending partition (`#` sorts before any write time),
   * so one Query tells a reader both what is pending and the newest id (tables/changes.ts).
   */
  changeHead: () => ({ pk: 'PENDINGCHANGES', sk: '#HEAD' }),
  /** A service, by its upstream id `<url without scheme, specials replaced>_<version>_<arch>`. */
  service: (org: string, serviceId: string) => ({ pk: `SERVICE#${org}/${serviceId}`, sk: 'SERVICE' }),
  /** A deployment pattern, by name. */
  pattern: (org: string, name: string) => ({ pk: `PATTERN#${org}/${name}`, sk: 'PATTERN' }),
  /** A pattern's signing keys share its partition, so deleting the pattern finds them. */
  patternKey: (org: string, name: string, keyId: string) => ({
    pk: `PATTERN#${org}/${name}`,
    sk: `KEY#${keyId}`,
  }),
  /** A deployment (business) policy, by name. */
  deploymentPolicy: (org: string, name: string) => ({ pk: `BUSINESSPOL#${org}/${name}`, sk: 'BUSINESSPOL' }),
  /** A node's agreements, status and errors share its partition: deleting the node takes them. */
  nodeAgreement: (org: string, id: string, agreementId: string) => ({
    pk: `NODE#${org}/${id}`,
    sk: `AGREEMENT#${agreementId}`,
  }),
  nodeStatus: (org: string, id: string) => ({ pk: `NODE#${org}/${id}`, sk: 'STATUS' }),
  nodeErrors: (org: string, id: string) => ({ pk: `NODE#${org}/${id}`, sk: 'ERRORS' }),
  // services: a service's children share its partition, so deleting the service finds them.
  servicePolicy: (org: string, serviceId: string) => ({ pk: `SERVICE#${org}/${serviceId}`, sk: 'POLICY' }),
  serviceKey: (org: string, serviceId: string, keyId: string) => ({
    pk: `SERVICE#${org}/${serviceId}`,
    sk: `KEY#${keyId}`,
  }),
  /** Dockauth ids are zero-padded so the sort key orders them numerically. */
  serviceDockAuth: (org: string, serviceId: string, dockAuthId: number) => ({
    pk: `SERVICE#${org}/${serviceId}`,
    sk: `DOCKAUTH#${String(dockAuthId).padStart(12, '0')}`,
  }),
  /** The service's last dockauth id (UpdateItem ADD). */
  serviceDockAuthSeq: (org: string, serviceId: string) => ({
    pk: `SERVICE#${org}/${serviceId}`,
    sk: 'DOCKAUTHSEQ',
  }),
  /** A public service's copy in the catalog partition: one Query lists every public service. */
  publicService: (org: string, serviceId: string) => ({ pk: 'PUBLICSERVICES', sk: `${org}/${serviceId}` }),
  /** Beside its owner: the user cascade finds the services a user owns in any org. */
  ownedService: (ownerOrg: string, username: string, org: string, serviceId: string) => ({
    pk: `USER#${ownerOrg}/${username}`,
    sk: `OWNS#SERVICE#${org}/${serviceId}`,
  }),
  /**
   * How many services, patterns or deployment policies a user owns (all orgs): the per-owner
   * limit's condition reads it (tables/owner-counts.ts).
   */
  ownedCount: (kind: OwnedKind, ownerOrg: string, username: string) => ({
    pk: `USER#${ownerOrg}/${username}`,
    sk: `${kind}COUNT`,
  }),
  /** A public pattern's copy in the catalog partition: one Query lists every public pattern. */
  publicPattern: (org: string, name: string) => ({ pk: 'PUBLICPATTERNS', sk: `${org}/${name}` }),
  /** A message an agbot sent to a node, in the node's partition (removed with the node), oldest first. */
  nodeMessage: (org: string, id: string, msgId: number) => ({
    pk: `NODE#${org}/${id}`,
    sk: `MSG#${String(msgId).padStart(12, '0')}`,
  }),
  /** The node mailbox's state (last id, messages stored), as `MSGSEQ` is the agbot mailbox's (tables/mailbox.ts). */
  nodeMessageSeq: (org: string, id: string) => ({ pk: `NODE#${org}/${id}`, sk: 'MSGSEQ' }),
  /** A secret of the secrets manager: all of an org's secrets in one partition, by full name. */
  secret: (org: string, name: string) => ({ pk: `SECRETS#${org}`, sk: name }),
};

/** Sort-key prefixes of a service's children and of a user's owned-service links. */
export const serviceChildPrefix = { key: 'KEY#', dockAuth: 'DOCKAUTH#' } as const;
export const ownedServicePrefix = 'OWNS#SERVICE#';
export const publicServicesPartition = 'PUBLICSERVICES';
export const publicPatternsPartition = 'PUBLICPATTERNS';

/** What a user's per-owner limits count. */
export type OwnedKind = 'SERVICE' | 'PATTERN' | 'BUSINESSPOL';

/**
 * The signal channel's connections (tables/signal-connections.ts): one item per connection (what
 * `$disconnect` and keepalives look up by connection id) and one per listener, in the node's own
 * signal partition or the one partition of every agbot's connections (what a write looks up).
 */
export const signalKeys = {
  connection: (connectionId: string) => ({ pk: `SIGNAL#${connectionId}`, sk: 'SIGNAL' }),
  nodeListener: (org: string, id: string, connectionId: string) => ({
    pk: `SIGNALS#NODE#${org}/${id}`,
    sk: connectionId,
  }),
  agbotListener: (connectionId: string) => ({ pk: 'SIGNALS#AGBOTS', sk: connectionId }),
  nodePartition: (org: string, id: string) => `SIGNALS#NODE#${org}/${id}`,
  agbotPartition: 'SIGNALS#AGBOTS',
};

/**
 * The agbot program's own state when it runs as functions of the stack (tables/agbot-state/): one
 * partition per agbot, apart from its Exchange record's (`AGBOT#…`), so the Exchange's queries and
 * cascades of that partition never meet it and deleting the record leaves it, as the standalone
 * agbot's SQLite file stays. A policy inside a key is JSON-quoted, since ids may hold `#`: the
 * closing quote ends it, so `REVISIT#"<policy>"#` is the prefix of that policy's items alone.
 */
export const agbotStateKeys = {
  partition: (org: string, id: string) => `AGBOTSTATE#${org}/${id}`,
  /** gsi1 partition listing every agbot's sealed key (gsi1sk `<org>/<id>`): key rotation finds them there. */
  sealedKeysIndex: 'AGBOTSTATEKEYS',
  messagingKey: (org: string, id: string) => ({ pk: `AGBOTSTATE#${org}/${id}`, sk: 'KEY' }),
  feedCursor: (org: string, id: string) => ({ pk: `AGBOTSTATE#${org}/${id}`, sk: 'CURSOR' }),
  liveAgreement: (org: string, id: string, agreementId: string) => ({
    pk: `AGBOTSTATE#${org}/${id}`,
    sk: `LIVE#${agreementId}`,
  }),
  archivedAgreement: (org: string, id: string, agreementId: string) => ({
    pk: `AGBOTSTATE#${org}/${id}`,
    sk: `ARCHIVED#${agreementId}`,
  }),
  /** Held by the one live agreement of a node under a policy (the restart rule, as a condition). */
  liveGuard: (org: string, id: string, policy: string, node: string) => ({
    pk: `AGBOTSTATE#${org}/${id}`,
    sk: `GUARD#${JSON.stringify(policy)}#${node}`,
  }),
  /** The ended agreements of a node under a policy, as a list (version fallback reads it). */
  endedAgreements: (org: string, id: string, policy: string, node: string) => ({
    pk: `AGBOTSTATE#${org}/${id}`,
    sk: `ENDED#${JSON.stringify(policy)}#${node}`,
  }),
  search: (org: string, id: string, policy: string) => ({
    pk: `AGBOTSTATE#${org}/${id}`,
    sk: `SEARCH#${policy}`,
  }),
  revisit: (org: string, id: string, policy: string, node: string) => ({
    pk: `AGBOTSTATE#${org}/${id}`,
    sk: `REVISIT#${JSON.stringify(policy)}#${node}`,
  }),
  /** What a served policy's searches saw (docs/agbot.md "Status"); sorts after `LIVE#`, so one Query reads both. */
  policyStatus: (org: string, id: string, policy: string) => ({
    pk: `AGBOTSTATE#${org}/${id}`,
    sk: `STATUS#${policy}`,
  }),
  statusPrefix: 'STATUS#',
  livePrefix: 'LIVE#',
  archivedPrefix: 'ARCHIVED#',
  revisitPrefix: (policy: string) => `REVISIT#${JSON.stringify(policy)}#`,
};

/** Change ids are zero-padded so the sort key orders them numerically. */
const paddedChangeId = (changeId: number) => String(changeId).padStart(16, '0');

/**
 * The change feed (tables/changes.ts). A write adds a pending row (`PENDINGCHANGES`, sorted by
 * write time); a reader sequences pending rows into numbered rows: one in the org's partition
 * (`CHANGES#<org>`), one in `ALLCHANGES` (readers of every org), and for public changes one in
 * `PUBLICCHANGES` (every org's readers). All base-table partitions: a Query of them is strongly
 * consistent, which a reader that must never skip a row needs (a GSI read is not).
 */
export const changeRowKeys = {
  pending: (sortKey: string) => ({ pk: 'PENDINGCHANGES', sk: sortKey }),
  ofOrg: (org: string, changeId: number) => ({ pk: `CHANGES#${org}`, sk: paddedChangeId(changeId) }),
  ofAll: (changeId: number) => ({ pk: 'ALLCHANGES', sk: paddedChangeId(changeId) }),
  ofPublic: (changeId: number) => ({ pk: 'PUBLICCHANGES', sk: paddedChangeId(changeId) }),
  /** The sort key from which a Query reads ids ≥ `changeId`. */
  sortKeyFrom: (changeId: number) => paddedChangeId(Math.max(0, changeId)),
  pendingPartition: 'PENDINGCHANGES',
  orgPartition: (org: string) => `CHANGES#${org}`,
  allPartition: 'ALLCHANGES',
  publicPartition: 'PUBLICCHANGES',
};

/** gsi1 partitions. */
/** Sort-key prefixes of an agbot's children (for `begins_with` queries). */
export const agbotChildPrefix = {
  agreement: 'AGREEMENT#',
  pattern: 'PATTERN#',
  policy: 'BUSINESSPOL#',
  message: 'MSG#',
} as const;

/** Sort-key prefix, in a user's partition, of the agbots it owns in other orgs. */
export const ownedAgbotPrefix = 'OWNS#AGBOT#';

/** Sort-key prefixes of a node's children (for `begins_with` queries). */
export const nodeChildPrefix = { managementStatus: 'MGMTSTATUS#', agreement: 'AGREEMENT#' } as const;

export const indexKeys = {
  allOrgs: 'ORGS',
  allOrgStats: 'STATS',
  orgUsers: (org: string) => `ORG#${org}#USERS`,
  orgNodes: (org: string) => `ORG#${org}#NODES`,
  orgAgbots: (org: string) => `ORG#${org}#AGBOTS`,
  orgServices: (org: string) => `ORG#${org}#SERVICES`,
  orgPatterns: (org: string) => `ORG#${org}#PATTERNS`,
  /**
   * gsi2: the nodes of an org that name `pattern` ("" for policy nodes), sorted by `nodeSearchSort`
   * (tables/node/search.ts).
   */
  nodeSearch: (org: string, pattern: string) => `SEARCH#${org}#${pattern}`,
  /** gsi2's sort key: the node's lastUpdated (policy searches page by it), then its id. */
  nodeSearchSort: (lastUpdated: string, id: string) => `${lastUpdated}#${id}`,
  orgDeploymentPolicies: (org: string) => `ORG#${org}#BUSINESSPOLS`,
  /**
   * Agreements by their own id, for `POST /agreements/confirm` (gsi1sk = owning agbot's `org/id`;
   * node agreements share the partition with gsi1sk `NODE#<org>/<id>`).
   */
  agreementById: (agreementId: string) => `AGREEMENT#${agreementId}`,
  /** The node messages an agbot sent (gsi1sk = `<nodeOrg>/<node>/<padded msgId>`): deleting the agbot finds them. */
  sentNodeMessages: (agbotOrg: string, agbotId: string) => `NODEMSGS#${agbotOrg}/${agbotId}`,
  /** A node's secrets, org-node and user-node ones (gsi1sk = the secret's name): deleting the node finds them. */
  nodeSecrets: (org: string, node: string) => `ORG#${org}#NODE#${node}#SECRETS`,
};
