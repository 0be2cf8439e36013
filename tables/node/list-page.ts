import { QueryCommand } from 'dynamodb-toolbox';
import { idFits } from '#lib/ids';
import { nodeKeys } from '../keys/node.ts';
import { ExchangeTable } from '../table.ts';
import { NodeEntity } from './entity.ts';
import { withHeartbeats } from './liveness.ts';
import type { NodeRecord } from './records.ts';

export interface NodeRecordPage {
  nodes: NodeRecord[];
  /** The last node id read, to resume after; undefined when the org has no more nodes. */
  next: string | undefined;
}

/**
 * One page of an org's whole node records in id order, for GET /v1/orgs/{org}/nodes (issue 36): one
 * Query of gsi1 `ORG#<org>#NODES` reading at most `limit` records after the node `after`, optionally
 * only those `owner` owns (a filter: read units are spent on the others), then their liveness items
 * (one BatchGetItem per 100 nodes, tables/node/liveness.ts). The compact page for the console is
 * tables/node/page.ts.
 */
export async function pageOrgNodeRecords(
  org: string,
  options: { limit: number; after?: string | undefined; owner?: string | undefined },
): Promise<NodeRecordPage> {
  // DynamoDB refuses a key longer than an id may be (a 500): no node comes after such an id.
  if (options.after !== undefined && !idFits(options.after)) return { nodes: [], next: undefined };
  const start = options.after === undefined ? undefined : nodeKeys.orgIndexAfter(org, options.after);
  const filters =
    options.owner === undefined ? {} : { filters: { node: { attr: 'owner' as const, eq: options.owner } } };
  const { Items = [], LastEvaluatedKey } = await ExchangeTable.build(QueryCommand)
    .entities(NodeEntity)
    .query({ index: 'gsi1', partition: nodeKeys.orgIndex(org) })
    .options({ limit: options.limit, ...(start ? { exclusiveStartKey: start } : {}), ...filters })
    .send();
  const next = typeof LastEvaluatedKey?.gsi1sk === 'string' ? LastEvaluatedKey.gsi1sk : undefined;
  return { nodes: await withHeartbeats(Items), next };
}
