import {
  DeleteItemCommand,
  Entity,
  type FormattedItem,
  GetItemCommand,
  item,
  PutTransaction,
  QueryCommand,
  string,
} from 'dynamodb-toolbox';
import { type CreateOutcome, deleteChildren, putBesideAgbot } from './agbot-served.ts';
import { agbotChildPrefix, keys } from './keys.ts';
import { ExchangeTable } from './table.ts';

/**
 * A deployment (business) policy an agbot serves: `AGBOT#<org>/<id>` / `BUSINESSPOL#<policyId>`,
 * where `policyId` is `<businessPolOrgid>_<businessPol>`. In the agbot's partition, so one Query
 * lists them all and the agbot's DELETE removes them.
 */
export const AgbotPolicyEntity = new Entity({
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
    keys.agbotPolicy(org, id, policyId),
});

export type AgbotPolicyRecord = FormattedItem<typeof AgbotPolicyEntity>;

/** Creates the record only if the agbot exists and does not serve that policy id yet. */
export function insertAgbotPolicy(record: AgbotPolicyRecord): Promise<CreateOutcome> {
  const put = AgbotPolicyEntity.build(PutTransaction)
    .item(record)
    .options({ condition: { attr: 'policyId', exists: false } })
    .params();
  return putBesideAgbot(record.org, record.id, put);
}

/** The agbot's served policies, ordered by id (one consistent Query of its partition). */
export async function listAgbotPolicies(org: string, id: string): Promise<AgbotPolicyRecord[]> {
  const { Items = [] } = await ExchangeTable.build(QueryCommand)
    .entities(AgbotPolicyEntity)
    .query({ partition: keys.agbot(org, id).pk, range: { beginsWith: agbotChildPrefix.policy } })
    .options({ consistent: true, maxPages: Number.POSITIVE_INFINITY })
    .send();
  return Items;
}

export async function getAgbotPolicy(
  org: string,
  id: string,
  policyId: string,
): Promise<AgbotPolicyRecord | undefined> {
  const { Item } = await AgbotPolicyEntity.build(GetItemCommand)
    .key({ org, id, policyId })
    .options({ consistent: true })
    .send();
  return Item;
}

/** Deletes one served policy; false when the agbot did not serve it. */
export async function deleteAgbotPolicy(org: string, id: string, policyId: string): Promise<boolean> {
  const { Attributes } = await AgbotPolicyEntity.build(DeleteItemCommand)
    .key({ org, id, policyId })
    .options({ returnValues: 'ALL_OLD' })
    .send();
  return Attributes !== undefined;
}

/** Deletes every served policy of the agbot; resolves how many there were. */
export const deleteAgbotPolicies = (org: string, id: string): Promise<number> =>
  deleteChildren(org, id, agbotChildPrefix.policy);
