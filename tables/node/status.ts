import { any, boolean, Entity, EntityRepository, item, list, record, string } from 'dynamodb-toolbox';
import { nodeKeys } from '../keys/node.ts';
import { ExchangeTable } from '../table.ts';

const statusSchema = item({
  org: string().key(),
  id: string().key(),
  /** Host → reachable, as the agent reports it. */
  connectivity: record(string(), boolean()).default({}),
  /** One entry per running (or suspended) service: agreement, service, containers, config state. */
  services: list(any()).default([]),
  /** `|<org>/<url>_<version>_<arch>|...`, computed from `services` on write (what agbots match). */
  runningServices: string(),
  lastUpdated: string(),
});

/** A node's status: `NODE#<org>/<id>` / `STATUS`, beside its node so deleting the node takes it. */
export const NodeStatusEntity = new Entity({
  name: 'nodeStatus',
  table: ExchangeTable,
  timestamps: false,
  schema: statusSchema,
  computeKey: ({ org, id }: { org: string; id: string }) => nodeKeys.status(org, id),
});

export const nodeStatusRepository = NodeStatusEntity.build(EntityRepository);
