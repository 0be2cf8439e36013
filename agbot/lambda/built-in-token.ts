import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { agbotTokenKey, BUILT_IN_AGBOT, openAgbotToken } from '#lib/agbot/built-in';
import type { SealedValue } from '#lib/secrets/envelope';
import { keyProvider } from '#lib/secrets/provider';
import { agbotDocumentClient, exchangeTable } from './dynamo.ts';

/**
 * The built-in agbot's token, as `POST /v1/admin/initdb` kept it (sealed in the table, opened
 * with the secrets manager's key: KMS on AWS); undefined before the first initdb. Never logged,
 * never put in the environment.
 */
export async function builtInAgbotToken(): Promise<string | undefined> {
  const { org, id } = BUILT_IN_AGBOT;
  const { Item } = await agbotDocumentClient.send(
    new GetCommand({ TableName: exchangeTable(), Key: agbotTokenKey(org, id), ConsistentRead: true }),
  );
  const sealed = Item?.sealed as SealedValue | undefined;
  return sealed && openAgbotToken(keyProvider(), BUILT_IN_AGBOT, sealed);
}
