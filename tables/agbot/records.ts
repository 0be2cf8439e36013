import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type FormattedItem, PutTransaction, QueryCommand } from 'dynamodb-toolbox';
import type { TakenOutcome } from '#lib/auth/identity-taken';
import { idFits } from '#lib/ids';
import { documentClient, tableName } from '../client.ts';
import { type Change, type ChangeOperation, transactWriteWithChanges } from '../feed/changes.ts';
import { changingIdentity } from '../identity/principals.ts';
import { ownedEntry, principalClaim, principalSet, takenOutcome } from '../identity/records.ts';
import { maxPagesFor, withinCeiling } from '../kernel/list-ceiling.ts';
import { type TransactItem, TransactionFailed } from '../kernel/transact.ts';
import { agbotKeys } from '../keys/agbot.ts';
import { orgKeys } from '../keys/org.ts';
import { splitOwner, userKeys } from '../keys/user.ts';
import { orgCounterUpdate, userCounterUpdate } from '../org/stats.ts';
import { ExchangeTable } from '../table.ts';
import { deleteAgbotCascade } from './cascade.ts';
import { AgbotEntity, agbotRepository } from './entity.ts';

export type AgbotRecord = FormattedItem<typeof AgbotEntity>;
/** What PUT, PATCH and heartbeats change; keys, owner and the agreement count never change here. */
type AgbotChanges = Partial<
  Pick<AgbotRecord, 'tokenHash' | 'name' | 'msgEndPoint' | 'publicKey' | 'lastHeartbeat'>
>;

/** Consistent, so a write's own check (and a client's read after its write) sees the latest. */
export async function getAgbot(org: string, id: string): Promise<AgbotRecord | undefined> {
  const { Item } = await agbotRepository.get({ org, id }, { consistent: true });
  return Item;
}

/** An org's agbots (gsi1 `ORG#<org>#AGBOTS`, within the list ceiling), optionally only ids starting with `idPrefix`. */
export async function listOrgAgbots(org: string, idPrefix = ''): Promise<AgbotRecord[]> {
  // No id is longer than this, and DynamoDB would refuse the key condition (a 500).
  if (!idFits(idPrefix)) return [];
  const partition = agbotKeys.orgIndex(org);
  const { Items = [] } = await ExchangeTable.build(QueryCommand)
    .entities(AgbotEntity)
    .query({ index: 'gsi1', partition, ...(idPrefix ? { range: { beginsWith: idPrefix } } : {}) })
    .options({ maxPages: maxPagesFor('capped') })
    .send();
  return withinCeiling(Items, 'capped');
}

type CreateAgbotOutcome = 'created' | 'exists' | 'no-org' | 'limit' | TakenOutcome;

/**
 * Creates an agbot and counts it (org and owner) in one transaction that also refuses an agbot
 * already there, a missing org, an `org/id` that is already a node or a user, and an owner past
 * `maxAgbots` (0 = unlimited). An agbot owned
 * from another org gets a link beside its owner, so deleting the owner finds it.
 */
export const createAgbot = (agbot: AgbotRecord, maxAgbots: number): Promise<CreateAgbotOutcome> =>
  changingIdentity(agbot.org, agbot.id, () => writeNewAgbot(agbot, maxAgbots));

async function writeNewAgbot(agbot: AgbotRecord, maxAgbots: number): Promise<CreateAgbotOutcome> {
  const [ownerOrg, ownerUser] = splitOwner(agbot.owner);
  const items: TransactItem[] = [
    AgbotEntity.build(PutTransaction)
      .item({ ...agbot, agreementCount: 0 })
      .options({ condition: { attr: 'org', exists: false } })
      .params(),
    {
      ConditionCheck: {
        TableName: tableName(),
        Key: orgKeys.record(agbot.org),
        ConditionExpression: 'attribute_exists(pk)',
      },
    },
    orgCounterUpdate(agbot.org, { deltas: { agbots: 1 } }),
    userCounterUpdate(ownerOrg, ownerUser, {
      deltas: { agbots: 1 },
      limit: { counter: 'agbots', max: maxAgbots },
    }),
  ];
  if (ownerOrg !== agbot.org) {
    const link = userKeys.ownedAgbot(ownerOrg, ownerUser, agbot.org, agbot.id);
    items.push({ Put: { TableName: tableName(), Item: link } });
  }
  items.push(principalClaim(agbot.org, agbot.id, 'agbot', ownedEntry(agbot)));
  try {
    await transactWriteWithChanges(items, [agbotChange(agbot.org, agbot.id, 'created/modified')]);
    return 'created';
  } catch (error) {
    if (!(error instanceof TransactionFailed)) throw error;
    const [exists, noOrg] = error.failed;
    if (exists) return 'exists';
    if (noOrg) return 'no-org';
    return takenOutcome(error, items.length - 1, 'agbot') ?? 'limit';
  }
}

/**
 * SETs `changes` on the agbot if it is still there and still owned by `owner` (the owner its
 * caller was authorized against); false if not.
 */
export const updateAgbot = (
  org: string,
  id: string,
  owner: string,
  changes: AgbotChanges,
  operation: ChangeOperation = 'modified',
): Promise<boolean> => changingIdentity(org, id, () => rewriteAgbot(org, id, owner, changes, operation));

/** The feed row of an agbot write (upstream's resource `agbot`). */
const agbotChange = (org: string, id: string, operation: ChangeOperation): Change => ({
  org,
  id,
  resource: 'agbot',
  operation,
});

async function rewriteAgbot(
  org: string,
  id: string,
  owner: string,
  changes: AgbotChanges,
  operation: ChangeOperation,
): Promise<boolean> {
  const names: Record<string, string> = { '#owner': 'owner' };
  const values: Record<string, unknown> = { ':owner': owner };
  const sets: string[] = [];
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    names[`#${name}`] = name;
    values[`:${name}`] = value;
    sets.push(`#${name} = :${name}`);
  }
  const update: TransactItem = {
    Update: {
      TableName: tableName(),
      Key: agbotKeys.record(org, id),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ConditionExpression: '#owner = :owner',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
  // A new token goes to the principal item in the same transaction (the owner condition holds it).
  const principal =
    changes.tokenHash === undefined
      ? []
      : [principalSet(org, id, 'agbot', ownedEntry({ tokenHash: changes.tokenHash, owner }))];
  try {
    await transactWriteWithChanges([update, ...principal], [agbotChange(org, id, operation)]);
    return true;
  } catch (error) {
    if (error instanceof TransactionFailed) return false;
    throw error;
  }
}

/** Sets lastHeartbeat; false when the agbot does not exist. */
export async function recordAgbotHeartbeat(org: string, id: string, at: string): Promise<boolean> {
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: agbotKeys.record(org, id),
        UpdateExpression: 'SET lastHeartbeat = :at',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':at': at },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/**
 * Deletes the agbot with its agreements, served patterns and policies and messages, uncounting
 * all of them; false when it was already gone (or changed hands) and nothing was counted.
 */
export const deleteAgbot = (agbot: AgbotRecord): Promise<boolean> => deleteAgbotCascade(agbot);
