import { any, Entity, EntityRepository, item, list, map, string } from 'dynamodb-toolbox';
import { nodeKeys } from '../keys/node.ts';
import { ExchangeTable } from '../table.ts';

const policySchema = item({
  org: string().key(),
  id: string().key(),
  label: string().default(''),
  description: string().default(''),
  properties: list(any()).default([]),
  constraints: list(string()).default([]),
  deployment: map({ properties: any().optional(), constraints: any().optional() }).default({}),
  management: any().optional(),
  nodePolicyVersion: string().default(''),
  lastUpdated: string(),
});

/** A node's policy: `NODE#<org>/<id>` / `POLICY`, beside its node so deleting the node finds it. */
export const NodePolicyEntity = new Entity({
  name: 'nodePolicy',
  table: ExchangeTable,
  timestamps: false,
  schema: policySchema,
  computeKey: ({ org, id }: { org: string; id: string }) => nodeKeys.policy(org, id),
});

export const nodePolicyRepository = NodePolicyEntity.build(EntityRepository);
