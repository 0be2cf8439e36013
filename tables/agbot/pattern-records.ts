import { Entity, type FormattedItem, item, PutTransaction, string } from 'dynamodb-toolbox';
import { agbotKeys } from '../keys/agbot.ts';
import { ExchangeTable } from '../table.ts';
import { servedRecords } from './served.ts';

/**
 * A deployment pattern an agbot serves: `AGBOT#<org>/<id>` / `PATTERN#<patternId>`, where
 * `patternId` is `<patternOrgid>_<pattern>`. In the agbot's partition, so one Query lists them all
 * and the agbot's DELETE removes them.
 */
const AgbotPatternEntity = new Entity({
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
    agbotKeys.pattern(org, id, patternId),
});

export type AgbotPatternRecord = FormattedItem<typeof AgbotPatternEntity>;

const served = servedRecords<AgbotPatternRecord>({
  prefix: agbotKeys.childPrefix.pattern,
  resource: 'agbotpatterns',
  key: agbotKeys.pattern,
  putItem: (record) =>
    AgbotPatternEntity.build(PutTransaction)
      .item(record)
      .options({ condition: { attr: 'patternId', exists: false } })
      .params(),
});

export const insertAgbotPattern = served.insert;
export const listAgbotPatterns = served.list;
export const getAgbotPattern = served.get;
export const deleteAgbotPattern = served.remove;
export const deleteAgbotPatterns = served.removeAll;
