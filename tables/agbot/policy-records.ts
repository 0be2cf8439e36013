import { Entity, type FormattedItem, item, PutTransaction, string } from 'dynamodb-toolbox';
import { agbotKeys } from '../keys/agbot.ts';
import { ExchangeTable } from '../table.ts';
import { servedRecords } from './served.ts';

/**
 * A deployment (business) policy an agbot serves: `AGBOT#<org>/<id>` / `BUSINESSPOL#<policyId>`,
 * where `policyId` is `<businessPolOrgid>_<businessPol>`. In the agbot's partition, so one Query
 * lists them all and the agbot's DELETE removes them.
 */
const AgbotPolicyEntity = new Entity({
  name: 'agbotPolicy',
  table: ExchangeTable,
  timestamps: false,
  schema: item({
    org: string().key(),
    id: string().key(),
    policyId: string().key(),
    businessPolOrgid: string(),
    businessPol: string(),
    nodeOrgid: string(),
    lastUpdated: string(),
  }),
  computeKey: ({ org, id, policyId }: { org: string; id: string; policyId: string }) =>
    agbotKeys.policy(org, id, policyId),
});

export type AgbotPolicyRecord = FormattedItem<typeof AgbotPolicyEntity>;

const served = servedRecords<AgbotPolicyRecord>({
  prefix: agbotKeys.childPrefix.policy,
  resource: 'agbotbusinesspols',
  key: agbotKeys.policy,
  putItem: (record) =>
    AgbotPolicyEntity.build(PutTransaction)
      .item(record)
      .options({ condition: { attr: 'policyId', exists: false } })
      .params(),
});

export const insertAgbotPolicy = served.insert;
export const listAgbotPolicies = served.list;
export const getAgbotPolicy = served.get;
export const deleteAgbotPolicy = served.remove;
export const deleteAgbotPolicies = served.removeAll;
