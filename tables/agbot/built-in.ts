import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { BUILT_IN_AGBOT, openAgbotToken, sealAgbotToken } from '#lib/agbot/built-in';
import { hashSecret, randomToken, VerificationCache } from '#lib/auth/secrets';
import type { SealedValue } from '#lib/secrets/envelope';
import { keyProvider } from '#lib/secrets/provider';
import { documentClient, tableName } from '../client.ts';
import { agbotKeys } from '../keys/agbot.ts';
import { createAgbot, getAgbot, updateAgbot } from './records.ts';

const { org, id } = BUILT_IN_AGBOT;

/**
 * The built-in agbot `IBM/agbot` (lib/agbot/built-in.ts), made by `POST /v1/admin/initdb` and by
 * `npm start`: its token is generated once and kept sealed (the secrets manager's envelope: KMS on
 * AWS, the local master key file locally); its record, owned by root so that it may deliver
 * secrets, is created if missing, or given that token if it holds another (an agbot record made
 * before the token was kept). Idempotent; answers the token (the local launcher serves the
 * existing orgs with it, and hands it to the standalone agbot).
 */
export async function ensureBuiltInAgbot(now = new Date()): Promise<string> {
  const token = await keptToken();
  const agbot = await getAgbot(org, id);
  if (agbot?.tokenHash && (await tokenMatches(agbot.tokenHash, token))) return token;
  const tokenHash = await hashSecret(token);
  if (agbot) await updateAgbot(org, id, agbot.owner, { tokenHash });
  else
    await createAgbot(
      {
        org,
        id,
        owner: 'root/root',
        tokenHash,
        name: 'built-in agbot',
        msgEndPoint: '',
        publicKey: '',
        lastHeartbeat: `${now.toISOString()}[UTC]`,
        agreementCount: 0,
      },
      0,
    );
  return token;
}

/** The kept token, or a new one kept now (if two callers race, the first one's is kept). */
async function keptToken(): Promise<string> {
  const stored = await readSealed();
  if (stored) return openAgbotToken(keyProvider(), BUILT_IN_AGBOT, stored);
  const sealed = await sealAgbotToken(keyProvider(), BUILT_IN_AGBOT, randomToken());
  try {
    await documentClient.send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...agbotKeys.token(org, id), sealed },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
  const kept = await readSealed();
  if (!kept) throw new Error('the built-in agbot token was not kept');
  return openAgbotToken(keyProvider(), BUILT_IN_AGBOT, kept);
}

async function readSealed(): Promise<SealedValue | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: agbotKeys.token(org, id), ConsistentRead: true }),
  );
  return Item?.sealed as SealedValue | undefined;
}

/** No cache: each check hashes (initdb and npm start only). */
const tokenMatches = (hash: string, token: string): Promise<boolean> =>
  new VerificationCache(() => 0).verify(hash, token);
