import { tableName } from '../client.ts';
import { queryAll } from './query-all.ts';

type Item = Record<string, unknown>;

/** Every item of a base-table partition or a gsi1 partition (optionally a sort-key prefix), all pages. */
export async function queryPartition(input: {
  index?: 'gsi1';
  partition: string;
  prefix?: string;
  projection?: string;
  owner?: string;
}): Promise<Item[]> {
  const keyAttr = input.index ? 'gsi1pk' : 'pk';
  const names: Record<string, string> = { '#key': keyAttr };
  const values: Record<string, unknown> = { ':key': input.partition };
  let condition = '#key = :key';
  if (input.prefix !== undefined) {
    names['#sort'] = input.index ? 'gsi1sk' : 'sk';
    values[':prefix'] = input.prefix;
    condition += ' AND begins_with(#sort, :prefix)';
  }
  if (input.owner !== undefined) values[':owner'] = input.owner;
  // `owner` is a DynamoDB reserved word.
  if (input.owner !== undefined || input.projection?.includes('#owner')) names['#owner'] = 'owner';
  return queryAll({
    TableName: tableName(),
    IndexName: input.index,
    KeyConditionExpression: condition,
    FilterExpression: input.owner !== undefined ? '#owner = :owner' : undefined,
    ProjectionExpression: input.projection,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  });
}
