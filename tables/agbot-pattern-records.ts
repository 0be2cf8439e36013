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
 * A deployment pattern an agbot serves: `AGBOT#<org>/<id>` / `PATTERN#<patternId>`, where
 * `patternId` is `<patternOrgid>_<pattern>`. In the agbot's partition, so one Query lists them all
 * and the agbot's DELETE removes them.
 */
export const AgbotPatternEntity = new Entity({
  name: 'agbotPattern',
  table: ExchangeTable,
  timestamps: false,
  schema: item({
    org: string().key(),
    id: string().key(),
    patternId: string().key(),
    patternOrgid: string(),
    pattern: string(),
    nodeOrgid: string(),
    lastUpdated: string(),
  }),
  computeKey: ({ org, id, patternId }: { org: string; id: string; patternId: string }) =>
    keys.agbotPattern(org, id, patternId),
});

export type AgbotPatternRecord = FormattedItem<typeof AgbotPatternEntity>;

/** Creates the record only if the agbot exists and does not serve that pattern id yet. */
export function insertAgbotPattern(record: AgbotPatternRecord): Promise<CreateOutcome> {
  const put = AgbotPatternEntity.build(PutTransaction)
    .item(record)
    .options({ condition: { attr: 'patternId', exists: false } })
    .params();
  return putBesideAgbot(record.org, record.id, put);
}

/** The agbot's served patterns, ordered by id (one consistent Query of its partition). */
export async function listAgbotPatterns(org: string, id: string): Promise<AgbotPatternRecord[]> {
  const { Items = [] } = await ExchangeTable.build(QueryCommand)
    .entities(AgbotPatternEntity)
    .query({ partition: keys.agbot(org, id).pk, range: { beginsWith: agbotChildPrefix.pattern } })
    .options({ consistent: true, maxPages: Number.POSITIVE_INFINITY })
    .send();
  return Items;
}

export async function getAgbotPattern(
  org: string,
  id: string,
  patternId: string,
): Promise<AgbotPatternRecord | undefined> {
  const { Item } = await AgbotPatternEntity.build(GetItemCommand)
    .key({ org, id, patternId })
    .options({ consistent: true })
    .send();
  return Item;
}

/** Deletes one served pattern; false when the agbot did not serve it. */
export async function deleteAgbotPattern(org: string, id: string, patternId: string): Promise<boolean> {
  const { Attributes } = await AgbotPatternEntity.build(DeleteItemCommand)
    .key({ org, id, patternId })
    .options({ returnValues: 'ALL_OLD' })
    .send();
  return Attributes !== undefined;
}

/** Deletes every served pattern of the agbot; resolves how many there were. */
export const deleteAgbotPatterns = (org: string, id: string): Promise<number> =>
  deleteChildren(org, id, agbotChildPrefix.pattern);
