import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../client.ts';
import {
  type Change,
  type ChangeOperation,
  recordChanges,
  transactWriteWithChanges,
} from '../feed/changes.ts';
import { batchDelete } from '../kernel/batch-delete.ts';
import { queryAll } from '../kernel/query-all.ts';
import { type TransactItem, TransactionFailed } from '../kernel/transact.ts';
import { agbotKeys } from '../keys/agbot.ts';

/**
 * What the agbot's served patterns and served policies share: they live in the agbot's partition
 * under a sort-key prefix, are created only beside a live agbot, and are deleted a kind at a time.
 */
export type Key = { pk: string; sk: string };
export type CreateOutcome = 'created' | 'exists' | 'no-agbot';

/**
 * Runs `put` (which must carry its own "not already there" condition) in one transaction with a
 * check that the agbot still exists, so nothing is written beside an agbot deleted meanwhile.
 */
async function putBesideAgbot(
  org: string,
  id: string,
  put: TransactItem,
  change: Change,
): Promise<CreateOutcome> {
  try {
    await transactWriteWithChanges(
      [
        {
          ConditionCheck: {
            TableName: tableName(),
            Key: agbotKeys.record(org, id),
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
        put,
      ],
      [change],
    );
    return 'created';
  } catch (error) {
    if (!(error instanceof TransactionFailed)) throw error;
    return error.failed[0] ? 'no-agbot' : 'exists';
  }
}

/** The agbot's children whose sort key starts with `prefix` (consistent, all pages, sort-key order). */
async function queryChildren(
  org: string,
  id: string,
  prefix: string,
  projection?: string,
): Promise<Record<string, unknown>[]> {
  return queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': agbotKeys.record(org, id).pk, ':prefix': prefix },
    ProjectionExpression: projection,
    ConsistentRead: true,
  });
}

/** Keys of the agbot's children whose sort key starts with `prefix`. */
const childKeys = async (org: string, id: string, prefix: string): Promise<Key[]> =>
  (await queryChildren(org, id, prefix, 'pk, sk')) as Key[];

/** Deletes every child of one kind; resolves how many there were (0: nothing to delete). */
async function deleteChildren(org: string, id: string, prefix: string): Promise<number> {
  const found = await childKeys(org, id, prefix);
  await batchDelete(found);
  return found.length;
}

/** How one kind of served record (pattern or policy) is keyed and written. */
interface ServedKind<R> {
  prefix: string;
  /** Upstream's change-feed resource: `agbotpatterns` or `agbotbusinesspols` (id = the agbot). */
  resource: string;
  key: (org: string, id: string, childId: string) => Key;
  /** The Put (carrying its own "not there yet" condition) of a new record. */
  putItem: (record: R) => TransactItem;
}

/** The record as stored, without the table's keys and the library's entity tag. */
const withoutKeys = <R>({ pk: _pk, sk: _sk, _et: _entity, ...record }: Record<string, unknown>): R =>
  record as R;

/** Create, list, get and delete for one kind of an agbot's served records. */
export function servedRecords<R extends { org: string; id: string }>(kind: ServedKind<R>) {
  const change = (org: string, id: string, operation: ChangeOperation): Change => ({
    org,
    id,
    resource: kind.resource,
    operation,
  });
  return {
    /** Creates the record only if the agbot exists and does not serve that id yet. */
    insert: (record: R): Promise<CreateOutcome> =>
      putBesideAgbot(record.org, record.id, kind.putItem(record), change(record.org, record.id, 'created')),
    /** The agbot's records of this kind, ordered by id (one consistent Query of its partition). */
    list: async (org: string, id: string): Promise<R[]> =>
      (await queryChildren(org, id, kind.prefix)).map((item) => withoutKeys<R>(item)),
    get: async (org: string, id: string, childId: string): Promise<R | undefined> => {
      const { Item } = await documentClient.send(
        new GetCommand({ TableName: tableName(), Key: kind.key(org, id, childId), ConsistentRead: true }),
      );
      return Item && withoutKeys<R>(Item);
    },
    /** Deletes one record; false when the agbot did not serve it. */
    remove: async (org: string, id: string, childId: string): Promise<boolean> => {
      try {
        await transactWriteWithChanges(
          [
            {
              Delete: {
                TableName: tableName(),
                Key: kind.key(org, id, childId),
                ConditionExpression: 'attribute_exists(pk)',
              },
            },
          ],
          [change(org, id, 'deleted')],
        );
        return true;
      } catch (error) {
        if (error instanceof TransactionFailed) return false;
        throw error;
      }
    },
    /** Deletes every record of this kind; resolves how many there were. */
    removeAll: async (org: string, id: string): Promise<number> => {
      const deleted = await deleteChildren(org, id, kind.prefix);
      if (deleted > 0) await recordChanges([change(org, id, 'deleted')]);
      return deleted;
    },
  };
}
