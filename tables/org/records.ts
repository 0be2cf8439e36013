import { type FormattedItem, PutTransaction, QueryCommand } from 'dynamodb-toolbox';
import { idFits } from '#lib/ids';
import { tableName } from '../client.ts';
import { type Change, type ChangeOperation, transactWriteWithChanges } from '../feed/changes.ts';
import { TransactionFailed } from '../kernel/transact.ts';
import { orgKeys } from '../keys/org.ts';
import { ExchangeTable } from '../table.ts';
import { OrgEntity, orgRepository } from './entity.ts';
import { orgCounterUpdate } from './stats.ts';

export type OrgRecord = FormattedItem<typeof OrgEntity>;

export interface Intervals {
  minInterval: number;
  maxInterval: number;
  intervalAdjustment: number;
}

/** What a client may set on an org (POST/PUT replace all of it; PATCH one attribute). */
export interface OrgFields {
  orgType: string;
  label: string;
  description: string;
  tags: Record<string, string> | undefined;
  limits: { maxNodes: number };
  heartbeatIntervals: Intervals;
}

export async function getOrg(org: string): Promise<OrgRecord | undefined> {
  const { Item } = await orgRepository.get({ org });
  return Item;
}

/** Every org, sorted by id (gsi1 `ORGS`); `prefix` narrows the Query to ids that start with it. */
export async function listOrgs(prefix = ''): Promise<OrgRecord[]> {
  // No id is longer than this, and DynamoDB would refuse the key condition (a 500).
  if (!idFits(prefix)) return [];
  const { Items = [] } = await ExchangeTable.build(QueryCommand)
    .entities(OrgEntity)
    .query({
      index: 'gsi1',
      partition: orgKeys.allIndex,
      ...(prefix ? { range: { beginsWith: prefix } } : {}),
    })
    .options({ maxPages: Number.POSITIVE_INFINITY })
    .send();
  return Items;
}

/** Creates the org and its counters item in one transaction; false when the org already exists. */
export async function insertOrg(org: string, fields: OrgFields, now: string): Promise<boolean> {
  try {
    await transactWriteWithChanges(
      [
        OrgEntity.build(PutTransaction)
          .item({ org, ...fields, lastUpdated: now })
          .options({ condition: { attr: 'org', exists: false } })
          .params(),
        orgCounterUpdate(org, { deltas: {} }),
      ],
      [orgChange(org, 'created')],
    );
    return true;
  } catch (error) {
    if (error instanceof TransactionFailed) return false;
    throw error;
  }
}

/** The feed row of an org write (upstream's resource `org`). */
const orgChange = (org: string, operation: ChangeOperation): Change => ({
  org,
  id: org,
  resource: 'org',
  operation,
});

/** Replaces an existing org (omitted optional fields reset); false when there is no such org. */
export async function replaceOrg(org: string, fields: OrgFields, now: string): Promise<boolean> {
  try {
    await transactWriteWithChanges(
      [
        OrgEntity.build(PutTransaction)
          .item({ org, ...fields, lastUpdated: now })
          .options({ condition: { attr: 'org', exists: true } })
          .params(),
      ],
      [orgChange(org, 'created/modified')],
    );
    return true;
  } catch (error) {
    if (error instanceof TransactionFailed) return false;
    throw error;
  }
}

export type OrgPatch = { [K in keyof OrgFields]: { attribute: K; value: OrgFields[K] } }[keyof OrgFields];

/** Sets one attribute of an existing org (tags: the whole map); false when there is no such org. */
export async function patchOrg(org: string, patch: OrgPatch, now: string): Promise<boolean> {
  const remove = patch.attribute === 'tags' && patch.value === undefined;
  try {
    await transactWriteWithChanges(
      [
        {
          Update: {
            TableName: tableName(),
            Key: orgKeys.record(org),
            UpdateExpression: remove
              ? 'SET lastUpdated = :now REMOVE #attr'
              : 'SET #attr = :value, lastUpdated = :now',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeNames: { '#attr': patch.attribute },
            ExpressionAttributeValues: remove ? { ':now': now } : { ':value': patch.value, ':now': now },
          },
        },
      ],
      [orgChange(org, 'modified')],
    );
    return true;
  } catch (error) {
    if (error instanceof TransactionFailed) return false;
    throw error;
  }
}
