import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { open, type SealedValue, seal } from '#lib/secrets/envelope';
import type { KeyProvider, SecretContext } from '#lib/secrets/key-provider';
import { documentClient, tableName } from '../client.ts';
import type { AgbotRef } from './agbot-ref.ts';
import { agbotStateKeys } from './keys.ts';

/**
 * The envelope's context of an agbot's messaging key: `#` is not allowed in a secret name, so no
 * secret of the org can be given this key's sealed value (the context is the GCM AAD and, on AWS,
 * the KMS encryption context).
 */
export const sealingContext = (agbot: AgbotRef): SecretContext => ({
  org: agbot.org,
  name: `#agbot-messaging-key/${agbot.id}`,
});

/** The PEM of the agbot's private key, opened from its sealed item (GetItem, + KMS Decrypt on AWS). */
export async function readMessagingKey(agbot: AgbotRef, provider: KeyProvider): Promise<string | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({
      TableName: tableName(),
      Key: agbotStateKeys.messagingKey(agbot.org, agbot.id),
      ConsistentRead: true,
    }),
  );
  return Item ? open(provider, Item.sealed as SealedValue, sealingContext(agbot)) : undefined;
}

/**
 * Stores `pem` sealed with the secrets manager's envelope, unless a key is stored already (two
 * first starts at once): resolves the key kept. The PEM itself is never written.
 */
export async function keepMessagingKey(agbot: AgbotRef, pem: string, provider: KeyProvider): Promise<string> {
  const sealed = await seal(provider, pem, sealingContext(agbot));
  try {
    await documentClient.send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...agbotStateKeys.messagingKey(agbot.org, agbot.id),
          gsi1pk: agbotStateKeys.sealedKeysIndex,
          gsi1sk: `${agbot.org}/${agbot.id}`,
          sealed,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return pem;
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    return (await readMessagingKey(agbot, provider)) as string;
  }
}
