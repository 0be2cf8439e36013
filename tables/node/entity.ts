import {
  any,
  boolean,
  Entity,
  EntityRepository,
  item,
  list,
  map,
  number,
  record,
  string,
} from 'dynamodb-toolbox';
import { nodeKeys } from '../keys/node.ts';
import { ExchangeTable } from '../table.ts';

const nodeSchema = item({
  org: string().key(),
  id: string().key(),
  /** scrypt hash of the node token; '' when the node was created without one. */
  tokenHash: string().default(''),
  name: string().default(''),
  /** `org/username` of the owning user. */
  owner: string(),
  nodeType: string().default('device'),
  pattern: string().default(''),
  registeredServices: list(any()).default([]),
  userInput: list(any()).default([]),
  msgEndPoint: string().default(''),
  softwareVersions: record(string(), string()).default({}),
  lastHeartbeat: string().optional(),
  publicKey: string().default(''),
  arch: string().default(''),
  heartbeatIntervals: map({
    minInterval: number().default(0),
    maxInterval: number().default(0),
    intervalAdjustment: number().default(0),
  }).default({ minInterval: 0, maxInterval: 0, intervalAdjustment: 0 }),
  ha_group: string().optional(),
  lastUpdated: string(),
  clusterNamespace: string().default(''),
  isNamespaceScoped: boolean().default(false),
  /** How many agreements the node holds (tables/node/agreement-records.ts keeps it; maxAgreements checks it). */
  agreementCount: number().optional(),
  /**
   * What searches need of the node's agreements, kept in the same transactions as the agreements
   * (tables/node/agreement-records.ts): agreement id → `{url, state, lastUpdated}`.
   */
  agreementServices: record(string(), any()).default({}),
});

/**
 * A node: `NODE#<org>/<id>` / `NODE` (its policy shares the partition), listed through gsi1
 * `ORG#<org>#NODES`, found by agbot searches through gsi2 `SEARCH#<org>#<pattern>`.
 */
export const NodeEntity = new Entity({
  name: 'node',
  table: ExchangeTable,
  timestamps: false,
  schema: nodeSchema.and((prev) => ({
    gsi1pk: string()
      .hidden()
      .link<typeof prev>(({ org }) => nodeKeys.orgIndex(org)),
    gsi1sk: string()
      .hidden()
      .link<typeof prev>(({ id }) => id),
    gsi2pk: string()
      .hidden()
      .link<typeof prev>(({ org, pattern }) => nodeKeys.searchIndex(org, pattern)),
    gsi2sk: string()
      .hidden()
      .link<typeof prev>(({ id, lastUpdated }) => nodeKeys.searchSort(lastUpdated, id)),
  })),
  computeKey: ({ org, id }: { org: string; id: string }) => nodeKeys.record(org, id),
});

export const nodeRepository = NodeEntity.build(EntityRepository);

/** Registered = has a pattern or a public key (what upstream's status counts). */
export const isRegistered = (node: { pattern?: string; publicKey?: string }): boolean =>
  Boolean(node.pattern) || Boolean(node.publicKey);
