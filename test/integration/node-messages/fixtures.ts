import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#tables/client';
import { agbotKeys } from '#tables/keys/agbot';
import { orgChangeRows } from '#test/support/changes';
import { createAgbot } from '#test/support/identities';

/** An agbot that may send node messages: upstream requires the sender to have a public key. */
export async function createSendingAgbot(
  org: string,
  id: string,
  owner: string,
  publicKey = `${id}-public-key`,
) {
  const auth = await createAgbot(org, id, owner);
  await documentClient.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: agbotKeys.record(org, id),
      UpdateExpression: 'SET publicKey = :key',
      ExpressionAttributeValues: { ':key': publicKey },
    }),
  );
  return auth;
}

/** The change rows of an org's feed (resource, id, operation), oldest first. */
export async function changeRows(
  org: string,
): Promise<{ resource: string; id: string; operation: string }[]> {
  return (await orgChangeRows(org)).map(({ resource, id, operation }) => ({ resource, id, operation }));
}

/** Sort keys of every item in a partition. */
export async function partitionSortKeys(pk: string): Promise<string[]> {
  const { Items = [] } = await documentClient.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ConsistentRead: true,
    }),
  );
  return Items.map((item) => String(item.sk));
}
