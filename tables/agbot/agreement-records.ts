import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { type FormattedItem, GetItemCommand, PutTransaction, QueryCommand } from 'dynamodb-toolbox';
import { documentClient, tableName } from '../client.ts';
import { type Change, type ChangeOperation, transactWriteWithChanges } from '../feed/changes.ts';
import { type ListReach, maxPagesFor, withinCeiling } from '../kernel/list-ceiling.ts';
import { retryOnConflict } from '../kernel/retry-on-conflict.ts';
import { type TransactItem, TransactionFailed } from '../kernel/transact.ts';
import { agbotKeys } from '../keys/agbot.ts';
import { ExchangeTable } from '../table.ts';
import { AgbotAgreementEntity } from './agreement-entity.ts';

export type AgreementRecord = FormattedItem<typeof AgbotAgreementEntity>;
type Key = { pk: string; sk: string };

/** One agreement of the agbot `org/agbot` (consistent). */
export async function getAgreement(
  org: string,
  agbot: string,
  agreementId: string,
): Promise<AgreementRecord | undefined> {
  const { Item } = await AgbotAgreementEntity.build(GetItemCommand)
    .key({ org, agbot, agreementId })
    .options({ consistent: true })
    .send();
  return Item;
}

/**
 * The agbot's agreements: one Query of its partition's `AGREEMENT#` items (consistent), within the
 * list ceiling unless `reach` is `'all'`.
 */
export async function listAgreements(
  org: string,
  agbot: string,
  reach: ListReach = 'capped',
): Promise<AgreementRecord[]> {
  const { Items = [] } = await ExchangeTable.build(QueryCommand)
    .entities(AgbotAgreementEntity)
    .query({
      partition: agbotKeys.record(org, agbot).pk,
      range: { beginsWith: agbotKeys.childPrefix.agreement },
    })
    .options({ consistent: true, maxPages: maxPagesFor(reach) })
    .send();
  return withinCeiling(Items, reach);
}

/** Every agreement with this id, under any agbot (gsi1 `AGREEMENT#<id>`; eventually consistent). */
export async function findAgreementsById(agreementId: string): Promise<AgreementRecord[]> {
  const { Items = [] } = await ExchangeTable.build(QueryCommand)
    .entities(AgbotAgreementEntity)
    .query({ index: 'gsi1', partition: agbotKeys.agreementByIdIndex(agreementId) })
    .options({ maxPages: Number.POSITIVE_INFINITY })
    .send();
  return Items;
}

/**
 * A transaction on the agbot's record, retried longer than transactWrite does on its own: an
 * agbot writing many agreements at once makes its own transactions collide.
 */
const transactOnAgbot = (items: TransactItem[], changes: Change[]): Promise<void> =>
  retryOnConflict(() => transactWriteWithChanges(items, changes));

/** The agbot's agreement count moves with its agreements; the agbot must still be there. */
function countOnAgbot(org: string, agbot: string, delta: number, max = 0): TransactItem {
  const limited = delta > 0 && max > 0;
  return {
    Update: {
      TableName: tableName(),
      Key: agbotKeys.record(org, agbot),
      UpdateExpression: 'ADD agreementCount :delta',
      ConditionExpression: limited
        ? 'attribute_exists(pk) AND (attribute_not_exists(agreementCount) OR agreementCount <= :below)'
        : 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':delta': delta, ...(limited ? { ':below': max - delta } : {}) },
    },
  };
}

interface AgreementWrite {
  org: string;
  agbot: string;
  agreementId: string;
  /** The agbot's owner, stored for confirm. */
  owner: string;
  service: { orgid: string; pattern: string; url: string };
  state: string;
  now: string;
}

/** The feed row of an agbot agreement write (upstream's resource `agbotagreements`, id = the agbot). */
const agreementChange = (org: string, agbot: string, operation: ChangeOperation): Change => ({
  org,
  id: agbot,
  resource: 'agbotagreements',
  operation,
});

/** Updates service, state and lastUpdated of an existing agreement (dataLastReceived kept); false if none. */
async function updateExisting(write: AgreementWrite): Promise<boolean> {
  try {
    await transactWriteWithChanges(
      [
        {
          Update: {
            TableName: tableName(),
            Key: agbotKeys.agreement(write.org, write.agbot, write.agreementId),
            UpdateExpression: 'SET service = :service, #state = :state, lastUpdated = :now',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeNames: { '#state': 'state' },
            ExpressionAttributeValues: {
              ':service': write.service,
              ':state': write.state,
              ':now': write.now,
            },
          },
        },
      ],
      [agreementChange(write.org, write.agbot, 'created/modified')],
    );
    return true;
  } catch (error) {
    if (error instanceof TransactionFailed) return false;
    throw error;
  }
}

type PutAgreementOutcome = 'created' | 'updated' | 'no-agbot' | 'limit';

/**
 * Adds or updates an agreement. A new one is written in one transaction with the agbot's count
 * (which refuses it past `maxAgreements`, 0 = unlimited, or when the agbot is gone; the org's
 * `agbotAgreements` follows from the table's stream); `dataLastReceived` starts as "". `likelyNew` (the first state of
 * the protocol, "Formed Proposal") tries the create first, which saves the update that would fail;
 * either guess is corrected by the write's conditions.
 */
export async function putAgreement(
  write: AgreementWrite,
  maxAgreements: number,
  likelyNew = false,
): Promise<PutAgreementOutcome> {
  for (let attempt = 0; attempt < 3; attempt++) {
    if (!(likelyNew && attempt === 0) && (await updateExisting(write))) return 'updated';
    const { org, agbot, agreementId, owner, service, state, now } = write;
    const record = { org, agbot, agreementId, owner, service, state, lastUpdated: now, dataLastReceived: '' };
    try {
      await transactOnAgbot(
        [
          AgbotAgreementEntity.build(PutTransaction)
            .item(record)
            .options({ condition: { attr: 'agreementId', exists: false } })
            .params(),
          countOnAgbot(org, agbot, 1, maxAgreements),
        ],
        [agreementChange(org, agbot, 'created/modified')],
      );
      return 'created';
    } catch (error) {
      if (!(error instanceof TransactionFailed)) throw error;
      // Created by a concurrent request meanwhile: update it instead.
      if (error.failed[0]) continue;
      const { Item } = await documentClient.send(
        new GetCommand({ TableName: tableName(), Key: agbotKeys.record(org, agbot), ConsistentRead: true }),
      );
      const exists = Item !== undefined;
      return exists ? 'limit' : 'no-agbot';
    }
  }
  return (await updateExisting(write)) ? 'updated' : 'no-agbot';
}

const RECORDS_PER_TRANSACTION = 50;

/**
 * Deletes the given agreements (each only if it still exists) in transactions that also move the
 * agbot's count by the number actually deleted; resolves that number.
 */
async function deleteCountedAgreements(org: string, agbot: string, found: Key[]): Promise<number> {
  let deleted = 0;
  for (let i = 0; i < found.length; i += RECORDS_PER_TRANSACTION) {
    let chunk = found.slice(i, i + RECORDS_PER_TRANSACTION);
    while (chunk.length > 0) {
      const deletes: TransactItem[] = chunk.map((Key) => ({
        Delete: { TableName: tableName(), Key, ConditionExpression: 'attribute_exists(pk)' },
      }));
      const n = chunk.length;
      try {
        await transactOnAgbot(
          [...deletes, countOnAgbot(org, agbot, -n)],
          [agreementChange(org, agbot, 'deleted')],
        );
        deleted += n;
        break;
      } catch (error) {
        if (!(error instanceof TransactionFailed)) throw error;
        // The agbot itself is gone: its own delete takes (and uncounts) its agreements.
        if (error.failed[n]) return deleted;
        // Agreements someone else deleted meanwhile: drop them and try the rest.
        chunk = chunk.filter((_, index) => !error.failed[index]);
      }
    }
  }
  return deleted;
}

/** Deletes one agreement; false when there was none (or the agbot is gone). */
export async function deleteAgreement(org: string, agbot: string, agreementId: string): Promise<boolean> {
  return (await deleteCountedAgreements(org, agbot, [agbotKeys.agreement(org, agbot, agreementId)])) === 1;
}

/** Deletes every agreement of the agbot; resolves how many there were. */
export async function deleteAllAgreements(org: string, agbot: string): Promise<number> {
  const found = (await listAgreements(org, agbot, 'all')).map((a) =>
    agbotKeys.agreement(org, agbot, a.agreementId),
  );
  return deleteCountedAgreements(org, agbot, found);
}
