import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type FormattedItem, GetItemCommand, PutTransaction, QueryCommand } from 'dynamodb-toolbox';
import { documentClient, tableName } from '../client.ts';
import { type Change, type ChangeOperation, transactWriteWithChanges } from '../feed/changes.ts';
import { type ListReach, maxPagesFor, withinCeiling } from '../kernel/list-ceiling.ts';
import { retryOnConflict } from '../kernel/retry-on-conflict.ts';
import { type TransactItem, TransactionFailed } from '../kernel/transact.ts';
import { nodeKeys } from '../keys/node.ts';
import { splitOwner, userKeys } from '../keys/user.ts';
import { ExchangeTable } from '../table.ts';
import { NodeAgreementEntity } from './agreement-entity.ts';
import { type NodeChanges, setNodeFields } from './records.ts';

export type NodeAgreementRecord = FormattedItem<typeof NodeAgreementEntity>;
type Key = { pk: string; sk: string };

/** One agreement of the node `org/node` (consistent). */
export async function getNodeAgreement(
  org: string,
  node: string,
  agreementId: string,
): Promise<NodeAgreementRecord | undefined> {
  const { Item } = await NodeAgreementEntity.build(GetItemCommand)
    .key({ org, node, agreementId })
    .options({ consistent: true })
    .send();
  return Item;
}

/**
 * The node's agreements: one Query of its partition's `AGREEMENT#` items (consistent), within the
 * list ceiling unless `reach` is `'all'`.
 */
export async function listNodeAgreements(
  org: string,
  node: string,
  reach: ListReach = 'capped',
): Promise<NodeAgreementRecord[]> {
  const { Items = [] } = await ExchangeTable.build(QueryCommand)
    .entities(NodeAgreementEntity)
    .query({
      partition: nodeKeys.record(org, node).pk,
      range: { beginsWith: nodeKeys.childPrefix.agreement },
    })
    .options({ consistent: true, maxPages: maxPagesFor(reach) })
    .send();
  return withinCeiling(Items, reach);
}

/** `byItsNode`: the node wrote its own agreement, so the row does not wake it (tables/feed/changes.ts). */
const agreementChange = (
  org: string,
  node: string,
  operation: ChangeOperation,
  byItsNode: boolean,
): Change => ({
  org,
  id: node,
  resource: 'nodeagreements',
  operation,
  byItsNode,
});

/** What searches keep of an agreement on its node (`agreementServices`, tables/node/search.ts). */
export interface AgreementSummary {
  url: string;
  state: string;
  lastUpdated: string;
}

/** The node's agreement summary changes of one write: set these, remove those. */
interface SummaryChange {
  set?: [agreementId: string, summary: AgreementSummary];
  remove?: string[];
}

/**
 * Stamps the node (`stamp`: lastUpdated, maybe lastHeartbeat), updates its agreement summary and
 * moves its `agreementCount`; the node must exist, and a positive move must stay within `max`
 * (0 = unlimited).
 */
function stampNode(
  org: string,
  node: string,
  stamp: NodeChanges,
  delta: number,
  summary: SummaryChange,
  max = 0,
): TransactItem {
  const base = setNodeFields(org, node, stamp).Update;
  if (!base) throw new Error('setNodeFields builds an Update');
  const names: Record<string, string> = { ...base.ExpressionAttributeNames, '#summary': 'agreementServices' };
  const values: Record<string, unknown> = { ...base.ExpressionAttributeValues };
  let expression = base.UpdateExpression ?? '';
  if (summary.set) {
    names['#setId'] = summary.set[0];
    values[':summary'] = summary.set[1];
    expression += ', #summary.#setId = :summary';
  }
  const removed = (summary.remove ?? []).map((agreementId, index) => {
    names[`#rm${index}`] = agreementId;
    return `#summary.#rm${index}`;
  });
  if (removed.length > 0) expression += ` REMOVE ${removed.join(', ')}`;
  const limited = delta > 0 && max > 0;
  if (delta !== 0) {
    expression += ' ADD #agreementCount :countDelta';
    names['#agreementCount'] = 'agreementCount';
    values[':countDelta'] = delta;
    if (limited) values[':countBelow'] = max - delta;
  }
  return {
    Update: {
      ...base,
      UpdateExpression: expression,
      ConditionExpression: limited
        ? `${base.ConditionExpression} AND (attribute_not_exists(#agreementCount) OR #agreementCount <= :countBelow)`
        : base.ConditionExpression,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/** The summary searches keep of an agreement (anax sends `agreementService.url` as `<org>/<url>`). */
const summaryOf = (write: NodeAgreementWrite): AgreementSummary => ({
  url: write.agrService.url,
  state: write.state,
  lastUpdated: write.now,
});

/**
 * Moves the owner's `nodeAgreements` with a plain ADD after the agreement write (what a user's
 * status shows). The org's counter follows from the table's stream (tables/org/stream-counts.ts);
 * the owner's cannot: a removed agreement's stream record carries only its key.
 */
async function countOwnersAgreements(owner: string, delta: number): Promise<void> {
  if (delta === 0) return;
  await retryOnConflict(() =>
    documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: userKeys.stats(...splitOwner(owner)),
        UpdateExpression: 'ADD nodeAgreements :delta',
        ExpressionAttributeValues: { ':delta': delta },
      }),
    ),
  );
}

interface NodeAgreementWrite {
  org: string;
  node: string;
  agreementId: string;
  /** The node's owner (`org/username`), whose counter moves with the node's agreements. */
  owner: string;
  services: { orgid: string; url: string }[];
  agrService: { orgid: string; pattern: string; url: string };
  state: string;
  now: string;
  /** What the write sets on the node: lastUpdated, and lastHeartbeat unless `noheartbeat`. */
  stamp: NodeChanges;
  /** The node itself writes (not its owner or an admin). */
  byItsNode: boolean;
}

type PutNodeAgreementOutcome = 'created' | 'updated' | 'no-node' | 'limit';

/** Rewrites an existing agreement and stamps the node, with its change row; undefined when the agreement is absent. */
async function updateExisting(write: NodeAgreementWrite): Promise<'updated' | 'no-node' | undefined> {
  const { org, node, agreementId } = write;
  try {
    await transactWriteWithChanges(
      [
        {
          Update: {
            TableName: tableName(),
            Key: nodeKeys.agreement(org, node, agreementId),
            UpdateExpression:
              'SET services = :services, agrService = :agrService, #state = :state, lastUpdated = :now',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeNames: { '#state': 'state' },
            ExpressionAttributeValues: {
              ':services': write.services,
              ':agrService': write.agrService,
              ':state': write.state,
              ':now': write.now,
            },
          },
        },
        stampNode(org, node, write.stamp, 0, { set: [agreementId, summaryOf(write)] }),
      ],
      [agreementChange(org, node, 'created/modified', write.byItsNode)],
    );
    return 'updated';
  } catch (error) {
    if (!(error instanceof TransactionFailed)) throw error;
    return error.failed[1] ? 'no-node' : undefined;
  }
}

/**
 * Adds or updates a node agreement. Each write stamps the node and records a `nodeagreements`
 * change in the same transaction; a new agreement also moves the node's `agreementCount`, whose
 * condition refuses it past `maxAgreements` (0 = unlimited) or when the node is gone, then the
 * owner's `nodeAgreements`. Nothing is written when the outcome is `no-node` or `limit`.
 * `likelyNew` (the node record read to authorize names no such agreement) tries the create first,
 * which saves the update that would fail; either guess is corrected by the write's conditions.
 */
export async function putNodeAgreement(
  write: NodeAgreementWrite,
  maxAgreements: number,
  likelyNew = false,
): Promise<PutNodeAgreementOutcome> {
  const { org, node, agreementId, services, agrService, state, now } = write;
  for (let attempt = 0; attempt < 3; attempt++) {
    const updated = likelyNew && attempt === 0 ? undefined : await updateExisting(write);
    if (updated) return updated;
    const record = { org, node, agreementId, services, agrService, state, lastUpdated: now };
    try {
      await transactWriteWithChanges(
        [
          NodeAgreementEntity.build(PutTransaction)
            .item(record)
            .options({ condition: { attr: 'agreementId', exists: false } })
            .params(),
          stampNode(org, node, write.stamp, 1, { set: [agreementId, summaryOf(write)] }, maxAgreements),
        ],
        [agreementChange(org, node, 'created/modified', write.byItsNode)],
      );
      await countOwnersAgreements(write.owner, 1);
      return 'created';
    } catch (error) {
      if (!(error instanceof TransactionFailed)) throw error;
      // Created by a concurrent request meanwhile: update it instead.
      if (error.failed[0]) continue;
      const { Item } = await documentClient.send(
        new GetCommand({ TableName: tableName(), Key: nodeKeys.record(org, node), ConsistentRead: true }),
      );
      return Item ? 'limit' : 'no-node';
    }
  }
  return (await updateExisting(write)) ?? 'no-node';
}

const RECORDS_PER_TRANSACTION = 50;

/** The node whose agreements go; `byItsNode`: the node itself deletes them. */
interface DeletingNode {
  org: string;
  id: string;
  owner: string;
  byItsNode?: boolean;
}
const agreementIdOf = (key: Key): string => key.sk.slice(nodeKeys.childPrefix.agreement.length);

/**
 * Deletes the given agreements (each only if it still exists) in transactions that stamp the
 * node, move its count and record one `nodeagreements` deletion; then the owner's counter.
 * Resolves how many were deleted.
 */
async function deleteCounted(node: DeletingNode, found: Key[], stamp: NodeChanges): Promise<number> {
  let deleted = 0;
  for (let i = 0; i < found.length; i += RECORDS_PER_TRANSACTION) {
    let chunk = found.slice(i, i + RECORDS_PER_TRANSACTION);
    while (chunk.length > 0) {
      const deletes: TransactItem[] = chunk.map((Key) => ({
        Delete: { TableName: tableName(), Key, ConditionExpression: 'attribute_exists(pk)' },
      }));
      const n = chunk.length;
      try {
        await transactWriteWithChanges(
          [...deletes, stampNode(node.org, node.id, stamp, -n, { remove: chunk.map(agreementIdOf) })],
          [agreementChange(node.org, node.id, 'deleted', node.byItsNode ?? false)],
        );
        await countOwnersAgreements(node.owner, -n);
        deleted += n;
        break;
      } catch (error) {
        if (!(error instanceof TransactionFailed)) throw error;
        // The node itself is gone: its own delete took (and uncounted) its agreements.
        if (error.failed[n]) return deleted;
        // Agreements someone else deleted meanwhile: drop them and try the rest.
        chunk = chunk.filter((_, index) => !error.failed[index]);
      }
    }
  }
  return deleted;
}

/** Deletes one agreement of the node; false when there was none (or no node). */
export async function deleteNodeAgreement(
  node: DeletingNode,
  agreementId: string,
  stamp: NodeChanges,
): Promise<boolean> {
  const key = nodeKeys.agreement(node.org, node.id, agreementId);
  return (await deleteCounted(node, [key], stamp)) === 1;
}

/** Deletes every agreement of the node; resolves how many there were. */
export async function deleteAllNodeAgreements(node: DeletingNode, stamp: NodeChanges): Promise<number> {
  const found = (await listNodeAgreements(node.org, node.id)).map((a) =>
    nodeKeys.agreement(node.org, node.id, a.agreementId),
  );
  return deleteCounted(node, found, stamp);
}
