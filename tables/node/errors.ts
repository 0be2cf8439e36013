import { any, Entity, EntityRepository, item, list, string } from 'dynamodb-toolbox';
import { nodeKeys } from '../keys/node.ts';
import { ExchangeTable } from '../table.ts';

const errorsSchema = item({
  org: string().key(),
  id: string().key(),
  /** The errors the agent surfaces, free-form JSON each. */
  errors: list(any()).default([]),
  lastUpdated: string(),
});

/** A node's surfaced errors: `NODE#<org>/<id>` / `ERRORS`, beside its node so deleting the node takes them. */
export const NodeErrorsEntity = new Entity({
  name: 'nodeErrors',
  table: ExchangeTable,
  timestamps: false,
  schema: errorsSchema,
  computeKey: ({ org, id }: { org: string; id: string }) => nodeKeys.errors(org, id),
});

export const nodeErrorsRepository = NodeErrorsEntity.build(EntityRepository);
