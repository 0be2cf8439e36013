import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { epochSeconds } from '#lib/time';
import { documentClient, tableName } from '../client.ts';
import { adminKeys } from './keys.ts';

/**
 * The one-time token that authorizes `POST /v1/admin/dropdb`: one item (`ADMIN` / `DROPDB_TOKEN`)
 * holding only its scrypt hash and expiry. A new token overwrites the previous one.
 */
interface StoredDropToken {
  tokenHash: string;
  expiresAt: Date;
}

export async function saveDropToken(tokenHash: string, expiresAt: Date): Promise<void> {
  await documentClient.send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...adminKeys.dropToken(),
        tokenHash,
        expiresAt: expiresAt.toISOString(),
        // DynamoDB removes it eventually; reads check expiresAt themselves.
        ttl: epochSeconds(expiresAt),
      },
    }),
  );
}

/** The current token unless there is none or it has expired at `now`. */
export async function loadDropToken(now: Date): Promise<StoredDropToken | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: adminKeys.dropToken(), ConsistentRead: true }),
  );
  if (!Item || typeof Item.tokenHash !== 'string') return undefined;
  const expiresAt = new Date(String(Item.expiresAt));
  if (!(expiresAt.getTime() > now.getTime())) return undefined;
  return { tokenHash: Item.tokenHash, expiresAt };
}

/**
 * Deletes the token if it is still the one that was verified; false when another request consumed
 * or replaced it first, so a token works exactly once.
 */
export async function consumeDropToken(tokenHash: string): Promise<boolean> {
  try {
    await documentClient.send(
      new DeleteCommand({
        TableName: tableName(),
        Key: adminKeys.dropToken(),
        ConditionExpression: 'tokenHash = :hash',
        ExpressionAttributeValues: { ':hash': tokenHash },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
