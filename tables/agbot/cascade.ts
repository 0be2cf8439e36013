import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../client.ts';
import { type Change, transactWriteWithChanges } from '../feed/changes.ts';
import { changingIdentity } from '../identity/principals.ts';
import { dropEmptyPrincipal, principalRemove } from '../identity/records.ts';
import { deletePartition } from '../kernel/delete-partition.ts';
import { forEachLimited } from '../kernel/for-each-limited.ts';
import { queryPartition } from '../kernel/query-partition.ts';
import { type TransactItem, TransactionFailed, transactWrite } from '../kernel/transact.ts';
import { agbotKeys } from '../keys/agbot.ts';
import { splitOwner, userKeys } from '../keys/user.ts';
import { deleteSentNodeMessages } from '../mailbox/cleanup.ts';
import { type Counts, orgCounterUpdate, userCounterUpdate } from '../org/stats.ts';
import { agbotChildDeltas } from './counts.ts';

/** The agbot's cascades: an agbot with all its children, and an agbot going with its org. */

/** Runs `items`; false when a condition failed. */
async function transactIfAllHold(items: TransactItem[], changes: Change[] = []): Promise<boolean> {
  try {
    await transactWriteWithChanges(items, changes);
    return true;
  } catch (error) {
    if (error instanceof TransactionFailed) return false;
    throw error;
  }
}

/** What deleting an agbot record must also do: its counters, and its owner's link if any. */
function agbotRecordDelete(
  agbot: { org: string; id: string; owner: string },
  condition: { expression: string; names?: Record<string, string>; values?: Record<string, unknown> },
  deltas: Partial<Counts>,
): TransactItem[] {
  const [ownerOrg, ownerUser] = splitOwner(agbot.owner);
  const items: TransactItem[] = [
    {
      Delete: {
        TableName: tableName(),
        Key: agbotKeys.record(agbot.org, agbot.id),
        ConditionExpression: condition.expression,
        ExpressionAttributeNames: condition.names,
        ExpressionAttributeValues: condition.values,
      },
    },
    orgCounterUpdate(agbot.org, { deltas: { agbots: -1, ...deltas } }),
    userCounterUpdate(ownerOrg, ownerUser, { deltas: { agbots: -1 } }),
  ];
  if (ownerOrg !== agbot.org) {
    const link = userKeys.ownedAgbot(ownerOrg, ownerUser, agbot.org, agbot.id);
    items.push({ Delete: { TableName: tableName(), Key: link } });
  }
  return items;
}

/** How long a started agbot delete holds its claim before another DELETE may take over (a crashed one). */
const CLAIM_SECONDS = 60;

/** Marks the agbot as being deleted by this request; false if it is gone, changed hands, or is claimed. */
async function claimAgbot(agbot: { org: string; id: string; owner: string }, claim: Date): Promise<boolean> {
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: agbotKeys.record(agbot.org, agbot.id),
        UpdateExpression: 'SET #deleting = :claim',
        ConditionExpression: '#owner = :owner AND (attribute_not_exists(#deleting) OR #deleting < :stale)',
        ExpressionAttributeNames: { '#owner': 'owner', '#deleting': 'deleting' },
        ExpressionAttributeValues: {
          ':owner': agbot.owner,
          ':claim': claim.toISOString(),
          ':stale': new Date(claim.getTime() - CLAIM_SECONDS * 1000).toISOString(),
        },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

const MAX_DELETE_ROUNDS = 5;

/**
 * Deletes an agbot with its agreements, served patterns and policies and messages, uncounting all
 * of them; false (nothing deleted or counted) when it was gone, changed hands or another request
 * is deleting it. One request wins a claim on the record first, so concurrent deletes count once.
 * Then its partition goes (Query + BatchWrite), then the record with its counts in one
 * transaction: agreements by the count kept on the record (exact even while agreements are being
 * written), messages by those found. Children written meanwhile (their writes need the record)
 * are swept up after it.
 */
export const deleteAgbotCascade = (agbot: { org: string; id: string; owner: string }): Promise<boolean> =>
  changingIdentity(agbot.org, agbot.id, () => deleteClaimedAgbot(agbot));

async function deleteClaimedAgbot(agbot: { org: string; id: string; owner: string }): Promise<boolean> {
  const { pk, sk } = agbotKeys.record(agbot.org, agbot.id);
  const claim = new Date();
  if (!(await claimAgbot(agbot, claim))) return false;
  // Upstream deletes what the agbot sent to nodes with it; claimed, it can send no more.
  await deleteSentNodeMessages(agbot.org, agbot.id);
  let messages = 0;
  for (let round = 0; round < MAX_DELETE_ROUNDS; round++) {
    messages -= agbotChildDeltas(await deletePartition(pk, { keep: sk })).agbotMsgs ?? 0;
    const { Item } = await documentClient.send(
      new GetCommand({ TableName: tableName(), Key: { pk, sk }, ConsistentRead: true }),
    );
    if (Item?.deleting !== claim.toISOString()) return false;
    const agreements = Item.agreementCount as number | undefined;
    const condition = {
      expression: `#deleting = :claim AND ${agreements === undefined ? 'attribute_not_exists(#count)' : '#count = :count'}`,
      names: { '#deleting': 'deleting', '#count': 'agreementCount' },
      values: {
        ':claim': claim.toISOString(),
        ...(agreements === undefined ? {} : { ':count': agreements }),
      },
    };
    const deltas = { agbotAgreements: -(agreements ?? 0), agbotMsgs: -messages };
    const deleted: Change = { org: agbot.org, id: agbot.id, resource: 'agbot', operation: 'deleted' };
    const items = [
      ...agbotRecordDelete(agbot, condition, deltas),
      principalRemove(agbot.org, agbot.id, 'agbot'),
    ];
    if (await transactIfAllHold(items, [deleted])) {
      await dropEmptyPrincipal(agbot.org, agbot.id);
      // Agreements written meanwhile were in the record's count; messages were not.
      const late = agbotChildDeltas(await deletePartition(pk, { keep: sk }));
      if (late.agbotMsgs)
        await transactWrite([orgCounterUpdate(agbot.org, { deltas: { agbotMsgs: late.agbotMsgs } })]);
      return true;
    }
  }
  throw new Error(`agbot '${agbot.org}/${agbot.id}': its agreements kept changing while it was deleted`);
}

/**
 * Deletes an agbot of an org being deleted whose owner is in another org (a hub admin, root): its
 * partition, then the record with the owner's count and link. The org's own counters go with the
 * org, so only the owner's side needs the transaction.
 */
export async function deleteForeignOwnedAgbot(agbot: {
  org: string;
  id: string;
  owner: string;
}): Promise<void> {
  const { pk, sk } = agbotKeys.record(agbot.org, agbot.id);
  await deletePartition(pk, { keep: sk });
  const [drop, , ownerCount, link] = agbotRecordDelete(agbot, { expression: 'attribute_exists(pk)' }, {});
  await transactIfAllHold([drop, ownerCount, link].filter((item) => item !== undefined));
}

/**
 * The agbots `owner` (`org/username`) owns: those of its org (gsi1, by owner) and those it owns in
 * other orgs (the links in its partition), each with its whole cascade.
 */
export async function deleteOwnedAgbots(org: string, username: string): Promise<void> {
  const owner = `${org}/${username}`;
  const agbots = await queryPartition({ index: 'gsi1', partition: agbotKeys.orgIndex(org), owner });
  await forEachLimited(agbots, (agbot) => deleteAgbotCascade({ org, id: String(agbot.gsi1sk), owner }));
  const { ownedAgbotPrefix } = userKeys;
  const links = await queryPartition({
    partition: userKeys.record(org, username).pk,
    prefix: ownedAgbotPrefix,
    projection: 'sk',
  });
  await forEachLimited(links, async (link) => {
    const [agbotOrg = '', id = ''] = splitOwner(String(link.sk).slice(ownedAgbotPrefix.length));
    await deleteAgbotCascade({ org: agbotOrg, id, owner });
  });
}
