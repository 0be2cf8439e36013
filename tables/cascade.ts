import type { PrincipalKind } from '#lib/auth/principal';
import { deleteAgbotCascade, deleteForeignOwnedAgbot } from './agbot/cascade.ts';
import { splitOwner } from './agbot/counts.ts';
import { tableName } from './client.ts';
import { deleteOrgDeploymentPolicies, deleteOwnedDeploymentPolicies } from './deployment-policy/cascade.ts';
import { recordChanges } from './feed/changes.ts';
import { changingIdentity, principalCache } from './identity/principals.ts';
import { dropEmptyPrincipal, principalRemove } from './identity/records.ts';
import { batchDelete, type Key } from './kernel/batch-delete.ts';
import { deletePartition } from './kernel/delete-partition.ts';
import { forEachLimited } from './kernel/for-each-limited.ts';
import { queryPartition } from './kernel/query-partition.ts';
import { type TransactItem, TransactionFailed, transactWrite } from './kernel/transact.ts';
import { agbotKeys } from './keys/agbot.ts';
import { identityKeys } from './keys/identity.ts';
import { nodeKeys } from './keys/node.ts';
import { orgKeys } from './keys/org.ts';
import { userKeys } from './keys/user.ts';
import { isRegistered } from './node/entity.ts';
import { type Counts, orgCounterUpdate } from './org/stats.ts';
import { deleteOrgPatterns, deleteOwnedPatterns } from './pattern/cascade.ts';
import { deleteNodeSecrets, deleteOrgSecrets, deleteUserSecrets } from './secret/records.ts';
import { deleteOrgServices, deleteOwnedServices } from './service/cascade.ts';

/**
 * Deletes that fan out: an org with everything in it, a user with the nodes and agbots it owns.
 * Every entity's partition holds its children, so one Query per partition finds them (never a
 * Scan). Children go first and the entity's own record last, so an interrupted cascade leaves the
 * record behind and a retried DELETE finishes the job.
 */

/** A message's sort key (`MSGSEQ`, the mailbox state, is not one). */
const NODE_MESSAGE_SK = /^MSG#\d+$/;
/** Records per counted transaction (each with its principal entry, plus one counter update; DynamoDB allows 100 items). */
const RECORDS_PER_TRANSACTION = 49;

/**
 * Deletes an org's users, nodes, agbots (each with its whole partition), then its STATS, then the
 * org. Agbots owned from another org (hub admins, root) are taken out of their owner's count.
 */
export async function deleteOrgCascade(org: string): Promise<void> {
  try {
    await deleteOrgPartitions(org);
  } finally {
    principalCache.forgetOrg(org);
  }
}

async function deleteOrgPartitions(org: string): Promise<void> {
  const members = [
    { partition: userKeys.orgIndex(org), record: 'USER' },
    { partition: nodeKeys.orgIndex(org), record: 'NODE' },
    { partition: agbotKeys.orgIndex(org), record: 'AGBOT' },
  ];
  const partitions: { pk: string; record: string }[] = [];
  const foreignOwned: { org: string; id: string; owner: string }[] = [];
  const ids = new Set<string>();
  for (const { partition, record } of members) {
    const items = await queryPartition({ index: 'gsi1', partition, projection: 'pk, gsi1sk, #owner' });
    for (const item of items) {
      ids.add(String(item.gsi1sk));
      const owner = String(item.owner ?? '');
      if (record === 'AGBOT' && owner && splitOwner(owner)[0] !== org) {
        foreignOwned.push({ org, id: String(item.gsi1sk), owner });
      } else partitions.push({ pk: String(item.pk), record });
    }
  }
  // The records go by BatchWrite, not in transactions: their principal items go first, so no
  // member authenticates while the org is being emptied (an interrupted cascade leaves records
  // that cannot log in, and the retried DELETE finishes them); and again once the records are
  // gone, for a token change that wrote an entry meanwhile (no write can once its record is gone).
  const principalKeys = [...ids].map((id) => identityKeys.principal(org, id));
  await batchDelete(principalKeys);
  await deleteOrgDeploymentPolicies(org);
  await deleteOrgPatterns(org);
  await deleteOrgServices(
    org,
    partitions.filter((p) => p.record === 'USER').map((p) => p.pk),
  );
  await forEachLimited(partitions, ({ pk, record }) => deletePartition(pk, { last: record }));
  await forEachLimited(foreignOwned, deleteForeignOwnedAgbot);
  await batchDelete(principalKeys);
  // The secrets manager's partition (issue 12).
  await deleteOrgSecrets(org);
  await deletePartition(orgKeys.record(org).pk, { last: orgKeys.record(org).sk });
  // Its own feed goes unread with it; readers of every org (root, multi-tenant agbots) learn of it.
  await recordChanges([{ org, id: org, resource: 'org', operation: 'deleted' }]);
}

/**
 * Deletes records (each only if it still exists) in transactions that also apply their summed
 * counter changes to the org and remove their principal entries, so a record deleted twice
 * concurrently is counted once and a principal entry goes exactly when its record does.
 */
async function deleteCounted(
  org: string,
  records: { key: Key; deltas: Partial<Counts>; principal: { id: string; kind: PrincipalKind } }[],
): Promise<void> {
  for (let i = 0; i < records.length; i += RECORDS_PER_TRANSACTION) {
    let chunk = records.slice(i, i + RECORDS_PER_TRANSACTION);
    while (chunk.length > 0) {
      const deltas: Partial<Counts> = {};
      for (const record of chunk) {
        for (const [counter, delta] of Object.entries(record.deltas) as [keyof Counts, number][]) {
          deltas[counter] = (deltas[counter] ?? 0) + delta;
        }
      }
      const items: TransactItem[] = chunk.map(({ key }) => ({
        Delete: { TableName: tableName(), Key: key, ConditionExpression: 'attribute_exists(pk)' },
      }));
      const principals = chunk.map(({ principal }) => principalRemove(org, principal.id, principal.kind));
      try {
        await transactWrite([...items, ...principals, orgCounterUpdate(org, { deltas })]);
        await forEachLimited(chunk, ({ principal }) => dropEmptyPrincipal(org, principal.id));
        break;
      } catch (error) {
        if (!(error instanceof TransactionFailed)) throw error;
        // Records someone else deleted meanwhile: drop them (and their counts) and try the rest.
        chunk = chunk.filter((_, index) => !error.failed[index]);
      }
    }
  }
}

/**
 * Deletes what user `org/username` owns: its nodes and agbots (whole partitions, org counters
 * adjusted, agbot children included), the agbots it owns in other orgs, then the user's own
 * partition (its STATS item included). Resolves false when the user record was already gone.
 * `userCounts` are the org counter changes for the user itself.
 */
export const deleteUserCascade = (
  org: string,
  username: string,
  userCounts: Partial<Counts> = { users: -1 },
): Promise<boolean> => changingIdentity(org, username, () => deleteUserAndOwned(org, username, userCounts));

async function deleteUserAndOwned(
  org: string,
  username: string,
  userCounts: Partial<Counts>,
): Promise<boolean> {
  const owner = `${org}/${username}`;
  const nodes = await queryPartition({ index: 'gsi1', partition: nodeKeys.orgIndex(org), owner });
  // Each node's messages go with its partition; they are uncounted with the node.
  const messages = new Map<string, number>();
  await forEachLimited(nodes, async (node) => {
    const removed = await deletePartition(String(node.pk), { keep: 'NODE' });
    messages.set(String(node.pk), removed.filter((key) => NODE_MESSAGE_SK.test(key.sk)).length);
  });
  await deleteCounted(
    org,
    nodes.map((node) => ({
      key: { pk: String(node.pk), sk: 'NODE' },
      principal: { id: String(node.gsi1sk), kind: 'node' },
      deltas: {
        nodes: -1,
        registeredNodes: isRegistered(node as { pattern?: string; publicKey?: string }) ? -1 : 0,
        nodeAgreements: -Number(node.agreementCount ?? 0),
        nodeMsgs: -(messages.get(String(node.pk)) ?? 0),
      },
    })),
  );
  for (const node of nodes) principalCache.forget(org, String(node.gsi1sk));
  // The secrets manager (issue 12): the user's secrets and its nodes' secrets.
  await deleteUserSecrets(org, username);
  await forEachLimited(nodes, (node) => deleteNodeSecrets(org, String(node.gsi1sk)));
  await deleteOwnedServices(userKeys.record(org, username).pk, { recordChanges: true });
  await deleteOwnedDeploymentPolicies(org, owner);
  await deleteOwnedPatterns(org, owner);
  const agbots = await queryPartition({ index: 'gsi1', partition: agbotKeys.orgIndex(org), owner });
  await forEachLimited(agbots, (agbot) => deleteAgbotCascade({ org, id: String(agbot.gsi1sk), owner }));
  const user = userKeys.record(org, username);
  const links = await queryPartition({
    partition: user.pk,
    prefix: userKeys.ownedAgbotPrefix,
    projection: 'sk',
  });
  await forEachLimited(links, async (link) => {
    const [agbotOrg = '', id = ''] = splitOwner(String(link.sk).slice(userKeys.ownedAgbotPrefix.length));
    await deleteAgbotCascade({ org: agbotOrg, id, owner });
  });
  await deletePartition(user.pk, { keep: user.sk });
  try {
    await transactWrite([
      { Delete: { TableName: tableName(), Key: user, ConditionExpression: 'attribute_exists(pk)' } },
      orgCounterUpdate(org, { deltas: userCounts }),
      principalRemove(org, username, 'user'),
    ]);
    await dropEmptyPrincipal(org, username);
    return true;
  } catch (error) {
    if (error instanceof TransactionFailed) return false;
    throw error;
  }
}
