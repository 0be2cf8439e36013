import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#tables/client';
import { nodeKeys } from '#tables/keys/node';
import { createNode } from '#test/support/identities';

/** A node that may send messages: upstream requires the sender to have registered a public key. */
export async function createSender(org: string, id: string, owner: string, publicKey = `${id}-public-key`) {
  const auth = await createNode(org, id, owner);
  await documentClient.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: nodeKeys.record(org, id),
      UpdateExpression: 'SET publicKey = :key',
      ExpressionAttributeValues: { ':key': publicKey },
    }),
  );
  return auth;
}
