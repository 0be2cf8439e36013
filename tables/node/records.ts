import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { QueryCommand as RawQueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type FormattedItem, PutTransaction, QueryCommand } from 'dynamodb-toolbox';
import type { TakenOutcome } from '#lib/auth/identity-taken';
import { documentClient, tableName } from '../client.ts';
import { type Change, type ChangeOperation, transactWriteWithChanges } from '../feed/changes.ts';
import { changingIdentity } from '../identity/principals.ts';
import {
  dropEmptyPrincipal,
  nodeEntry,
  principalClaim,
  principalRemove,
  principalSet,
  takenOutcome,
} from '../identity/records.ts';
import { maxPagesFor, withinCeiling } from '../kernel/list-ceiling.ts';
import { queryAll } from '../kernel/query-all.ts';
import { storedItemReader } from '../kernel/stored-item.ts';
import { type TransactItem, TransactionFailed, transactWrite } from '../kernel/transact.ts';
import { nodeKeys } from '../keys/node.ts';
import { orgKeys } from '../keys/org.ts';
import { splitOwner } from '../keys/user.ts';
import { type Counts, orgCounterUpdate, userCounterUpdate } from '../org/stats.ts';
import { deleteNodeSecrets } from '../secret/records.ts';
import { ExchangeTable } from '../table.ts';
import { isRegistered, NodeEntity } from './entity.ts';
import { isHeartbeatItem, laterHeartbeat, livenessHeartbeat, withHeartbeats } from './liveness.ts';
import { NodePolicyEntity } from './policy-entity.ts';

export type NodeRecord = FormattedItem<typeof NodeEntity>;
/** What PUT, PATCH, heartbeats and policy writes change; keys, owner and ha_group never change here. */
export type NodeChanges = Partial<Omit<NodeRecord, 'org' | 'id' | 'owner' | 'ha_group'>>;

const readStoredNode = storedItemReader(NodeEntity);
const readStoredPolicy = storedItemReader(NodePolicyEntity);

/**
 * Consistent, so a write's own optimistic check (and a client's read after its write) sees the
 * latest. Every node request makes this read: the item is picked as stored (tables/kernel/stored-item.ts).
 * One Query reads the node and its liveness item (`NODE`, `NODE#HEARTBEAT`), whose lastHeartbeat
 * wins when later (tables/node/liveness.ts).
 */
export async function getNode(org: string, id: string): Promise<NodeRecord | undefined> {
  const key = nodeKeys.record(org, id);
  const { Items = [] } = await documentClient.send(
    new RawQueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :node)',
      ExpressionAttributeValues: { ':pk': key.pk, ':node': key.sk },
      ConsistentRead: true,
    }),
  );
  return nodeFromItems(Items, key.sk);
}

/**
 * The node and its policy in ONE consistent Query of the node's partition, from `NODE` to `POLICY`
 * (the record, its liveness, its policy: nothing else sorts between them, tables/keys/node.ts):
 * what an agbot's `GET …/policy` needs to be authorized and answered.
 */
export async function getNodeAndPolicy(
  org: string,
  id: string,
): Promise<{ node: NodeRecord | undefined; policy: FormattedItem<typeof NodePolicyEntity> | undefined }> {
  const key = nodeKeys.record(org, id);
  const policyKey = nodeKeys.policy(org, id);
  const { Items = [] } = await documentClient.send(
    new RawQueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :node AND :policy',
      ExpressionAttributeValues: { ':pk': key.pk, ':node': key.sk, ':policy': policyKey.sk },
      ConsistentRead: true,
    }),
  );
  const policy = Items.find((item) => item.sk === policyKey.sk);
  return { node: nodeFromItems(Items, key.sk), policy: policy && readStoredPolicy(policy) };
}

/** The node from its partition's `NODE` items: the record, with the later of its two heartbeats. */
function nodeFromItems(items: Record<string, unknown>[], recordSk: string): NodeRecord | undefined {
  const stored = items.find((item) => item.sk === recordSk);
  if (!stored) return undefined;
  const node = readStoredNode(stored);
  const beat = livenessHeartbeat(items.find(isHeartbeatItem));
  const latest = laterHeartbeat(node.lastHeartbeat, beat);
  return latest === undefined ? node : { ...node, lastHeartbeat: latest };
}

/** An org's nodes (gsi1 `ORG#<org>#NODES`, within the list ceiling), optionally only those `owner` owns. */
export async function listOrgNodes(org: string, owner?: string): Promise<NodeRecord[]> {
  const query = ExchangeTable.build(QueryCommand)
    .entities(NodeEntity)
    .query({ index: 'gsi1', partition: nodeKeys.orgIndex(org) });
  const filters = owner === undefined ? {} : { filters: { node: { attr: 'owner' as const, eq: owner } } };
  const { Items = [] } = await query.options({ maxPages: maxPagesFor('capped'), ...filters }).send();
  return withHeartbeats(withinCeiling(Items, 'capped'));
}

function counterItems(
  node: NodeRecord,
  deltas: Partial<Counts>,
  ownerOnly: Partial<Counts> = {},
): TransactItem[] {
  const [ownerOrg, ownerUser] = splitOwner(node.owner);
  return [
    orgCounterUpdate(node.org, { deltas }),
    userCounterUpdate(ownerOrg, ownerUser, { deltas: { ...deltas, ...ownerOnly } }),
  ];
}

/** gsi2's keys follow the node's pattern and lastUpdated (tables/node/search.ts). */
const searchKeys = (org: string, id: string, fields: NodeChanges) => ({
  ...(fields.pattern !== undefined ? { gsi2pk: nodeKeys.searchIndex(org, fields.pattern) } : {}),
  ...(fields.lastUpdated !== undefined ? { gsi2sk: nodeKeys.searchSort(fields.lastUpdated, id) } : {}),
});

/** SET the given attributes of an existing node; with `lastUpdated`, only if the node still has it. */
export function setNodeFields(
  org: string,
  id: string,
  fields: NodeChanges,
  lastUpdated?: string,
): TransactItem {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  for (const [name, value] of Object.entries({ ...fields, ...searchKeys(org, id, fields) })) {
    if (value === undefined) continue;
    names[`#${name}`] = name;
    values[`:${name}`] = value;
    sets.push(`#${name} = :${name}`);
  }
  let condition = 'attribute_exists(pk)';
  if (lastUpdated !== undefined) {
    names['#read'] = 'lastUpdated';
    values[':read'] = lastUpdated;
    condition += ' AND #read = :read';
  }
  return {
    Update: {
      TableName: tableName(),
      Key: nodeKeys.record(org, id),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ConditionExpression: condition,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/** The feed row of a node write (upstream's resource `node`). */
const nodeChange = (org: string, id: string, operation: ChangeOperation): Change => ({
  org,
  id,
  resource: 'node',
  operation,
});

/**
 * One update goes as a plain UpdateItem (half the cost of a transaction), several, or any with a
 * change row to record, as a transaction.
 */
async function write(items: TransactItem[], changes: Change[] = []): Promise<void> {
  if (changes.length > 0) return transactWriteWithChanges(items, changes);
  const [only] = items;
  if (items.length > 1 || !only?.Update) return transactWrite(items);
  try {
    await documentClient.send(new UpdateCommand(only.Update));
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) throw new TransactionFailed([true]);
    throw error;
  }
}

/** Runs `items`; false when the first one's condition failed (the node changed or went away). */
async function writeUnlessChanged(items: TransactItem[], changes: Change[] = []): Promise<boolean> {
  try {
    await write(items, changes);
    return true;
  } catch (error) {
    if (error instanceof TransactionFailed && error.failed[0]) return false;
    throw error;
  }
}

export type CreateOutcome = 'created' | 'exists' | 'no-org' | 'org-limit' | 'user-limit' | TakenOutcome;

/**
 * Creates a node and counts it (org and owner, nodes and registeredNodes) in one transaction that
 * also refuses a node already there, a missing org, an `org/id` that is already a user or an
 * agbot, and a count past either limit (0 = none).
 */
export const createNode = (node: NodeRecord, limits: { org: number; user: number }): Promise<CreateOutcome> =>
  changingIdentity(node.org, node.id, () => writeNewNode(node, limits));

async function writeNewNode(node: NodeRecord, limits: { org: number; user: number }): Promise<CreateOutcome> {
  const deltas = { nodes: 1, registeredNodes: isRegistered(node) ? 1 : 0 };
  const [ownerOrg, ownerUser] = splitOwner(node.owner);
  try {
    await transactWriteWithChanges(
      [
        NodeEntity.build(PutTransaction)
          .item(node)
          .options({ condition: { attr: 'org', exists: false } })
          .params(),
        {
          ConditionCheck: {
            TableName: tableName(),
            Key: orgKeys.record(node.org),
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
        orgCounterUpdate(node.org, { deltas, limit: { counter: 'nodes', max: limits.org } }),
        userCounterUpdate(ownerOrg, ownerUser, { deltas, limit: { counter: 'nodes', max: limits.user } }),
        principalClaim(node.org, node.id, 'node', nodeEntry(node)),
      ],
      // Upstream records a node PUT as created/modified whether or not the node was there.
      [nodeChange(node.org, node.id, 'created/modified')],
    );
    return 'created';
  } catch (error) {
    if (!(error instanceof TransactionFailed)) throw error;
    // Items in order: node, org, org counter, user counter, principal; upstream checks the user's limit first.
    const [exists, noOrg, orgLimit] = error.failed;
    if (exists) return 'exists';
    if (noOrg) return 'no-org';
    const taken = takenOutcome(error, 4, 'node');
    if (taken) return taken;
    return orgLimit && !error.failed[3] ? 'org-limit' : 'user-limit';
  }
}

/**
 * Applies `changes` if the node still carries the `lastUpdated` read into `current` (false if
 * not), moving the registeredNodes counters when the node becomes registered or unregistered.
 */
export const updateNode = (
  current: NodeRecord,
  changes: NodeChanges,
  operation: ChangeOperation = 'modified',
): Promise<boolean> =>
  changingIdentity(current.org, current.id, () => rewriteNode(current, changes, operation));

async function rewriteNode(
  current: NodeRecord,
  changes: NodeChanges,
  operation: ChangeOperation,
): Promise<boolean> {
  if (changes.lastUpdated !== undefined) {
    changes = { ...changes, lastUpdated: laterTimestamp(current.lastUpdated, changes.lastUpdated) };
  }
  const delta = Number(isRegistered({ ...current, ...changes })) - Number(isRegistered(current));
  const update = setNodeFields(current.org, current.id, changes, current.lastUpdated);
  // A new token or public key goes to the principal item in the same transaction (the owner never
  // changes here); the record is as read (lastUpdated's condition), so the entry is exact.
  const keyChanged = changes.publicKey !== undefined && changes.publicKey !== current.publicKey;
  const principal =
    changes.tokenHash === undefined && !keyChanged
      ? []
      : [
          principalSet(
            current.org,
            current.id,
            'node',
            nodeEntry({
              owner: current.owner,
              tokenHash: changes.tokenHash ?? current.tokenHash,
              publicKey: changes.publicKey ?? current.publicKey,
            }),
          ),
        ];
  return writeUnlessChanged(
    [update, ...(delta ? counterItems(current, { registeredNodes: delta }) : []), ...principal],
    [nodeChange(current.org, current.id, operation)],
  );
}

/**
 * `proposed`, or 1 ms after `previous` when the clock has not moved past it: lastUpdated is the
 * version the next writer's condition checks, so it must never repeat.
 */
export function laterTimestamp(previous: string, proposed: string): string {
  const before = Date.parse(previous);
  return Number.isNaN(before) || Date.parse(proposed) > before
    ? proposed
    : new Date(before + 1).toISOString();
}

/** Heartbeats write the node's liveness item, not the node (tables/node/liveness.ts). */
export { recordHeartbeat } from './liveness.ts';

type PartitionKey = { pk: string; sk: string; seq?: number };

/** Deletes the node mailbox's state only while it holds the `seq` read with the partition. */
const mailboxStateDelete = ({ pk, sk, seq }: PartitionKey): TransactItem => ({
  Delete: {
    TableName: tableName(),
    Key: { pk, sk },
    ConditionExpression: seq === undefined ? 'attribute_not_exists(seq)' : 'seq = :seq',
    ...(seq === undefined ? {} : { ExpressionAttributeValues: { ':seq': seq } }),
  },
});

/** Keys of every item in the node's partition (the node, its policy, its mailbox, its other children). */
const partitionKeys = (org: string, id: string): Promise<PartitionKey[]> =>
  queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': nodeKeys.record(org, id).pk },
    ProjectionExpression: 'pk, sk, seq',
  }) as Promise<PartitionKey[]>;

const MAX_TRANSACTION_ITEMS = 100;

/**
 * Deletes the node's whole partition and uncounts the node, if it still carries the `lastUpdated`
 * read into `current` (false if not). Children that do not fit beside the node in one transaction
 * go first, so an interrupted delete leaves the node to be deleted again.
 */
export const deleteNode = async (current: NodeRecord): Promise<boolean> => {
  const deleted = await changingIdentity(current.org, current.id, () => deleteNodePartition(current));
  // The secrets manager (issue 12): the node's secrets live in the org's secrets partition.
  if (deleted) await deleteNodeSecrets(current.org, current.id);
  return deleted;
};

async function deleteNodePartition(current: NodeRecord): Promise<boolean> {
  const nodeKey = nodeKeys.record(current.org, current.id);
  const deleteItem = (key: PartitionKey): TransactItem =>
    key.sk === 'MSGSEQ'
      ? mailboxStateDelete(key)
      : { Delete: { TableName: tableName(), Key: { pk: key.pk, sk: key.sk } } };
  // The mailbox state first, so it stays in the last transaction (below).
  const children = (await partitionKeys(current.org, current.id))
    .filter((key) => key.sk !== nodeKey.sk)
    .sort((a, b) => Number(b.sk === 'MSGSEQ') - Number(a.sk === 'MSGSEQ'));
  // Beside the children: the node, two counters, its principal entry and the change row.
  const room = MAX_TRANSACTION_ITEMS - 5;
  while (children.length > room) {
    const overflow = children.splice(room, MAX_TRANSACTION_ITEMS);
    await transactWrite(overflow.map(deleteItem));
  }
  const deleteNodeItem: TransactItem = {
    Delete: {
      TableName: tableName(),
      Key: nodeKey,
      ConditionExpression: '#read = :read',
      ExpressionAttributeNames: { '#read': 'lastUpdated' },
      ExpressionAttributeValues: { ':read': current.lastUpdated },
    },
  };
  // Its mailbox goes with it (the org's counters of its messages and agreements follow from the
  // table's stream, tables/org/stream-counts.ts). The mailbox state must still hold the `seq`
  // read, else a message posted since would be left behind: that fails as a conflict (retried).
  // The node's agreementCount is exact here: every agreement write changes the lastUpdated
  // checked above, so the owner's counter is uncounted by it.
  const uncount = counterItems(
    current,
    { nodes: -1, registeredNodes: isRegistered(current) ? -1 : 0 },
    { nodeAgreements: -(current.agreementCount ?? 0) },
  );
  try {
    const deleted = await writeUnlessChanged(
      [
        deleteNodeItem,
        ...children.map(deleteItem),
        ...uncount,
        principalRemove(current.org, current.id, 'node'),
      ],
      [nodeChange(current.org, current.id, 'deleted')],
    );
    if (deleted) await dropEmptyPrincipal(current.org, current.id);
    return deleted;
  } catch (error) {
    if (error instanceof TransactionFailed) return false;
    throw error;
  }
}
