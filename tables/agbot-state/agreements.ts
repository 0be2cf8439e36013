import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  type AgbotAgreement,
  type EndedAgreement,
  endedAgreementOf,
  type SaveOutcome,
} from '#lib/agbot-store/contract';
import { documentClient, tableName } from '../client.ts';
import { batchGet } from '../kernel/batch-get.ts';
import { queryAll } from '../kernel/query-all.ts';
import { type TransactItem, TransactionFailed, transactWrite } from '../kernel/transact.ts';
import type { AgbotRef } from './agbot-ref.ts';
import { agbotStateKeys } from './keys.ts';

/**
 * The agbot's agreements: a live one at `LIVE#<id>`, an archived one at `ARCHIVED#<id>` (so a round
 * lists the live ones without reading the archive), the agreement itself in attribute `agreement`.
 * The (node, policy) pair of a live agreement is held by a guard item `GUARD#"<policy>"#<node>`
 * naming it, written and deleted in the same transactions as the agreement: DynamoDB, not a read
 * before the write, keeps a node from getting two live agreements for a policy.
 */

const node = (a: AgbotAgreement) => `${a.nodeOrg}/${a.nodeId}`;
/** A live agreement's index keys (keys.ts `liveOfOrgIndex`). */
const liveIndex = (agbot: AgbotRef, a: AgbotAgreement) => ({
  gsi1pk: agbotStateKeys.liveOfOrgIndex(agbot.org, agbot.id, a.policy.slice(0, a.policy.indexOf('/'))),
  gsi1sk: a.agreementId,
});
const guardOf = (agbot: AgbotRef, a: AgbotAgreement) =>
  agbotStateKeys.liveGuard(agbot.org, agbot.id, a.policy, node(a));
/** The guard is free, or already this agreement's. */
const guardFreeOrOurs = (agreementId: string) => ({
  ConditionExpression: 'attribute_not_exists(pk) OR agreementId = :id',
  ExpressionAttributeValues: { ':id': agreementId },
});

/**
 * Creates or updates a live agreement: one transaction puts it, takes or keeps its guard, and
 * checks it was never archived (archiving is final: a late update must not bring it back).
 */
async function saveLive(agbot: AgbotRef, agreement: AgbotAgreement): Promise<SaveOutcome> {
  const { org, id } = agbot;
  const table = tableName();
  const items: TransactItem[] = [
    { Put: { TableName: table, Item: liveItem(agbot, agreement) } },
    {
      Put: {
        TableName: table,
        Item: { ...guardOf(agbot, agreement), agreementId: agreement.agreementId },
        ...guardFreeOrOurs(agreement.agreementId),
      },
    },
    {
      ConditionCheck: {
        TableName: table,
        Key: agbotStateKeys.archivedAgreement(org, id, agreement.agreementId),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ];
  try {
    await transactWrite(items);
    return 'saved';
  } catch (error) {
    if (!(error instanceof TransactionFailed)) throw error;
    return error.failed[2] ? 'archived' : 'live-agreement-exists';
  }
}

/** The `LIVE#<id>` item of an agreement, with its index keys. */
const liveItem = (agbot: AgbotRef, agreement: AgbotAgreement) => ({
  ...agbotStateKeys.liveAgreement(agbot.org, agbot.id, agreement.agreementId),
  ...liveIndex(agbot, agreement),
  agreement,
});

/** TransactWriteItems takes at most 100 items. */
const TRANSACTION_ITEMS = 100;

/**
 * Saves changes to live agreements: a Put of each `LIVE#<id>` item only while it is there
 * (archiving deletes it, so an agreement archived meanwhile is `archived` and stays so), its guard
 * left alone (it names the agreement already), up to 100 in ONE transaction: a round's proposal
 * marks, finalizations and workload states cost a call per hundred, not one each. A transaction
 * fails whole when one condition fails: those are `archived` and the others are written again.
 */
export async function updateLiveAgreements(
  agbot: AgbotRef,
  agreements: AgbotAgreement[],
): Promise<SaveOutcome[]> {
  const outcomes: SaveOutcome[] = agreements.map((a) => (a.archived ? 'archived' : 'saved'));
  const live = [...outcomes.keys()].filter((index) => outcomes[index] === 'saved');
  for (let start = 0; start < live.length; start += TRANSACTION_ITEMS) {
    let pending = live.slice(start, start + TRANSACTION_ITEMS);
    while (pending.length > 0) {
      const items: TransactItem[] = pending.map((index) => ({
        Put: {
          TableName: tableName(),
          Item: liveItem(agbot, agreements[index] as AgbotAgreement),
          ConditionExpression: 'attribute_exists(pk)',
        },
      }));
      try {
        await transactWrite(items);
        break;
      } catch (error) {
        if (!(error instanceof TransactionFailed)) throw error;
        for (const [at, index] of pending.entries()) if (error.failed[at]) outcomes[index] = 'archived';
        pending = pending.filter((_, at) => !error.failed[at]);
      }
    }
  }
  return outcomes;
}

/**
 * Archives an agreement: one transaction puts the archived copy (unless there is one: archiving is
 * final), deletes the live one and frees its guard. An agreement saved archived without ever
 * being live finds the guard held by another, and is archived without touching it.
 */
async function saveArchived(agbot: AgbotRef, agreement: AgbotAgreement): Promise<SaveOutcome> {
  const { org, id } = agbot;
  const table = tableName();
  const items: TransactItem[] = [
    {
      Put: {
        TableName: table,
        Item: { ...agbotStateKeys.archivedAgreement(org, id, agreement.agreementId), agreement },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    { Delete: { TableName: table, Key: agbotStateKeys.liveAgreement(org, id, agreement.agreementId) } },
    appendEnded(agbot, agreement),
    {
      Delete: { TableName: table, Key: guardOf(agbot, agreement), ...guardFreeOrOurs(agreement.agreementId) },
    },
  ];
  const outcome = await archivedUnlessFailed(items);
  // Only the guard's condition failed: it is another agreement's, so this one leaves it alone.
  return outcome === 'guard-held'
    ? ((await archivedUnlessFailed(items.slice(0, 3))) as SaveOutcome)
    : outcome;
}

/**
 * Appends the agreement to its node's ended agreements under the policy (one small item per node
 * and policy, about 100 bytes an entry), in the archiving transaction: version fallback reads one
 * item instead of the whole archive.
 */
function appendEnded(agbot: AgbotRef, agreement: AgbotAgreement): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: agbotStateKeys.endedAgreements(agbot.org, agbot.id, agreement.policy, node(agreement)),
      UpdateExpression: 'SET ended = list_append(if_not_exists(ended, :none), :one)',
      ExpressionAttributeValues: { ':none': [], ':one': [endedAgreementOf(agreement)] },
    },
  };
}

/** One GetItem of the node's ended agreements under the policy. */
export async function endedAgreements(
  agbot: AgbotRef,
  nodeOrg: string,
  nodeId: string,
  policy: string,
): Promise<EndedAgreement[]> {
  const { Item } = await documentClient.send(
    new GetCommand({
      TableName: tableName(),
      Key: agbotStateKeys.endedAgreements(agbot.org, agbot.id, policy, `${nodeOrg}/${nodeId}`),
      ConsistentRead: true,
    }),
  );
  return (Item?.ended as EndedAgreement[] | undefined) ?? [];
}

/** Runs an archiving transaction: `archived` when there was an archived copy already. */
async function archivedUnlessFailed(items: TransactItem[]): Promise<SaveOutcome | 'guard-held'> {
  try {
    await transactWrite(items);
    return 'saved';
  } catch (error) {
    if (!(error instanceof TransactionFailed)) throw error;
    return error.failed[0] ? 'archived' : 'guard-held';
  }
}

export const saveAgreement = (agbot: AgbotRef, agreement: AgbotAgreement): Promise<SaveOutcome> =>
  agreement.archived ? saveArchived(agbot, agreement) : saveLive(agbot, agreement);

/**
 * Both places each agreement can be, 50 agreements per BatchGetItem; an archived copy wins over a
 * live one (archiving writes it first).
 */
export async function getAgreements(
  agbot: AgbotRef,
  agreementIds: string[],
): Promise<Map<string, AgbotAgreement>> {
  const ids = [...new Set(agreementIds)];
  const found = await batchGet(
    ids.flatMap((id) => [
      agbotStateKeys.liveAgreement(agbot.org, agbot.id, id),
      agbotStateKeys.archivedAgreement(agbot.org, agbot.id, id),
    ]),
  );
  const byId = new Map<string, AgbotAgreement>();
  for (const item of found) {
    const agreement = item.agreement as AgbotAgreement;
    const archived = String(item.sk).startsWith(agbotStateKeys.archivedPrefix);
    if (archived || !byId.has(agreement.agreementId)) byId.set(agreement.agreementId, agreement);
  }
  return byId;
}

/** One BatchGetItem of both places the agreement can be. */
export const getAgreement = async (
  agbot: AgbotRef,
  agreementId: string,
): Promise<AgbotAgreement | undefined> => (await getAgreements(agbot, [agreementId])).get(agreementId);

/** One Query of the live (or archived) prefix, every page, oldest first. */
export async function listAgreements(agbot: AgbotRef, archived: boolean): Promise<AgbotAgreement[]> {
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: {
      ':pk': agbotStateKeys.partition(agbot.org, agbot.id),
      ':prefix': archived ? agbotStateKeys.archivedPrefix : agbotStateKeys.livePrefix,
    },
    ConsistentRead: true,
  });
  if (!archived) await indexUnindexed(agbot, items);
  return oldestFirst(items);
}

/**
 * The live agreements under `policyOrg`'s policies and pattern services, oldest first: one Query of
 * their gsi1 partition, every page, eventually consistent (the Exchange's read-only routes).
 */
export async function liveAgreementsOfOrg(agbot: AgbotRef, policyOrg: string): Promise<AgbotAgreement[]> {
  const items = await queryAll({
    TableName: tableName(),
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': agbotStateKeys.liveOfOrgIndex(agbot.org, agbot.id, policyOrg) },
  });
  return oldestFirst(items);
}

const oldestFirst = (items: Record<string, unknown>[]): AgbotAgreement[] =>
  items
    .map((item) => item.agreement as AgbotAgreement)
    .sort((a, b) => a.createdAt - b.createdAt || (a.agreementId < b.agreementId ? -1 : 1));

/**
 * Live agreements saved before their index keys get them here, once (the round lists the live
 * ones every round): one conditional UpdateItem each, none for an agreement saved since.
 */
async function indexUnindexed(agbot: AgbotRef, items: Record<string, unknown>[]): Promise<void> {
  for (const item of items) {
    if (item.gsi1pk !== undefined) continue;
    const agreement = item.agreement as AgbotAgreement;
    const keys = liveIndex(agbot, agreement);
    try {
      await documentClient.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: agbotStateKeys.liveAgreement(agbot.org, agbot.id, agreement.agreementId),
          UpdateExpression: 'SET gsi1pk = :pk, gsi1sk = :sk',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(gsi1pk)',
          ExpressionAttributeValues: { ':pk': keys.gsi1pk, ':sk': keys.gsi1sk },
        }),
      );
    } catch (error) {
      // Archived or saved meanwhile: nothing left to index.
      if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
    }
  }
}

/** The guards of the nodes under the policy, 100 per BatchGetItem: the nodes whose guard is there. */
export async function liveAgreementNodes(
  agbot: AgbotRef,
  policy: string,
  nodes: string[],
): Promise<Set<string>> {
  const guards = [...new Set(nodes)].map((node) => ({
    node,
    key: agbotStateKeys.liveGuard(agbot.org, agbot.id, policy, node),
  }));
  const found = new Set((await batchGet(guards.map((guard) => guard.key))).map((item) => String(item.sk)));
  return new Set(guards.filter((guard) => found.has(guard.key.sk)).map((guard) => guard.node));
}
