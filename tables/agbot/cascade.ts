import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../client.ts';
import { type Change, transactWriteWithChanges } from '../feed/changes.ts';
import { changingIdentity } from '../identity/principals.ts';
import { dropEmptyPrincipal, principalRemove } from '../identity/records.ts';
import { deletePartition } from '../kernel/delete-partition.ts';
import { forEachLimited } from '../kernel/for-each-limited.ts';
import { queryPartition } from '../kernel/query-partition.ts';
import { type TransactItem, TransactionFailed } from '../kernel/transact.ts';
import { agbotKeys } from '../keys/agbot.ts';
import { splitOwner, userKeys } from '../keys/user.ts';
import { deleteSentNodeMessages } from '../mailbox/cleanup.ts';
import { orgCounterUpdate, userCounterUpdate } from '../org/stats.ts';

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
    orgCounterUpdate(agbot.org, { deltas: { agbots: -1 } }),
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

/**
 * Deletes an agbot with its agreements, served patterns and policies and messages; false (nothing
 * deleted) when it was gone, changed hands or another request is deleting it. One request wins a
 * claim on the record first, so concurrent deletes count the agbot once. Then its partition goes
 * (Query + BatchWrite), then the record with its counts in one transaction, if the claim is still
 * this request's. Children written meanwhile (their writes need the record) are swept up after
 * it. The org's counters of its messages and agreements follow the deletes from the table's
 * stream (tables/org/stream-counts.ts).
 */
export const deleteAgbotCascade = (agbot: { org: string; id: string; owner: string }): Promise<boolean> =>
  changingIdentity(agbot.org, agbot.id, () => deleteClaimedAgbot(agbot));

async function deleteClaimedAgbot(agbot: { org: string; id: string; owner: string }): Promise<boolean> {
  const { pk, sk } = agbotKeys.record(agbot.org, agbot.id);
  const claim = new Date();
  if (!(await claimAgbot(agbot, claim))) return false;
  // Upstream deletes what the agbot sent to nodes with it; claimed, it can send no more.
  await deleteSentNodeMessages(agbot.org, agbot.id);
  await deletePartition(pk, { keep: sk });
  const condition = {
    expression: '#deleting = :claim',
    names: { '#deleting': 'deleting' },
    values: { ':claim': claim.toISOString() },
  };
  const deleted: Change = { org: agbot.org, id: agbot.id, resource: 'agbot', operation: 'deleted' };
  const items = [...agbotRecordDelete(agbot, condition), principalRemove(agbot.org, agbot.id, 'agbot')];
  // A claim taken over meanwhile (this request stalled past CLAIM_SECONDS): the other request deletes.
  if (!(await transactIfAllHold(items, [deleted]))) return false;
  await dropEmptyPrincipal(agbot.org, agbot.id);
  await deletePartition(pk, { keep: sk });
  return true;
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
  const [drop, , ownerCount, link] = agbotRecordDelete(agbot, { expression: 'attribute_exists(pk)' });
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
