import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../client.ts';
import { queryPages } from '../kernel/list-ceiling.ts';
import { objectKeys } from './keys.ts';

/**
 * An object's metadata (docs/nmp.md#the-object-store): `OBJECT#<org>/<type>/<id>` / `OBJECT`,
 * listed in gsi1 `ORG#<org>#OBJECTS` by `<type>/<id>`. `meta` is the CSS metadata as written;
 * `dataSize` the size of its data when the data was there at the last write (else absent).
 */
export interface ObjectRecord {
  org: string;
  type: string;
  id: string;
  meta: Record<string, unknown>;
  public: boolean;
  dataSize?: number;
  lastUpdated: string;
}

const strip = (item: Record<string, unknown>): ObjectRecord => {
  const { pk: _p, sk: _s, gsi1pk: _g, gsi1sk: _h, ...record } = item;
  return record as unknown as ObjectRecord;
};

export async function getObject(org: string, type: string, id: string): Promise<ObjectRecord | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: objectKeys.record(org, type, id), ConsistentRead: true }),
  );
  return Item && strip(Item);
}

/** The org's objects, all types or those of `type`, by type then id (within the list ceiling). */
export async function listObjects(org: string, type?: string): Promise<ObjectRecord[]> {
  const items = await queryPages(
    {
      TableName: tableName(),
      IndexName: 'gsi1',
      KeyConditionExpression:
        type === undefined ? 'gsi1pk = :pk' : 'gsi1pk = :pk AND begins_with(gsi1sk, :type)',
      ExpressionAttributeValues: {
        ':pk': objectKeys.orgIndex(org),
        ...(type === undefined ? {} : { ':type': `${type}/` }),
      },
    },
    'capped',
  );
  return items.map(strip);
}

/** Creates or replaces an object's metadata. */
export async function putObject(record: ObjectRecord): Promise<void> {
  await documentClient.send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...objectKeys.record(record.org, record.type, record.id),
        gsi1pk: objectKeys.orgIndex(record.org),
        gsi1sk: objectKeys.sortKey(record.type, record.id),
        ...record,
      },
    }),
  );
}

/** Deletes an object's metadata; false when there was none. */
export async function deleteObject(org: string, type: string, id: string): Promise<boolean> {
  const { Attributes } = await documentClient.send(
    new DeleteCommand({
      TableName: tableName(),
      Key: objectKeys.record(org, type, id),
      ReturnValues: 'ALL_OLD',
    }),
  );
  return Attributes !== undefined;
}
