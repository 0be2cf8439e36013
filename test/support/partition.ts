import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#tables/client';

/** The sort keys of every item left in a partition (tests of cascading deletes). */
export async function partitionSortKeys(pk: string): Promise<string[]> {
  const { Items = [] } = await documentClient.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
    }),
  );
  return Items.map((item) => String(item.sk));
}
