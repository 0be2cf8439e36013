import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { open, type SealedValue, seal } from '#lib/secrets/envelope';
import type { KeyProvider } from '#lib/secrets/key-provider';
import { documentClient, tableName } from '../client.ts';
import { queryAll } from '../kernel/query-all.ts';
import { agbotStateKeys } from './keys.ts';
import { sealingContext } from './messaging-key.ts';

/**
 * Re-seals every agbot's messaging key sealed under `fromId` with a data key of `to` (the local
 * master key's rotation, beside the secrets: tables/secret/rotation.ts). The keys are listed by
 * gsi1 `AGBOTSTATEKEYS`, and each is rewritten only if it still holds what was read.
 */
export async function resealAgbotKeys(
  from: KeyProvider,
  to: KeyProvider,
  ids: { fromId: string; toId: string },
): Promise<{ resealed: number; skipped: number; unreadable: string[] }> {
  const result = { resealed: 0, skipped: 0, unreadable: [] as string[] };
  const listed = await queryAll({
    TableName: tableName(),
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': agbotStateKeys.sealedKeysIndex },
  });
  for (const item of listed) {
    const full = String(item.gsi1sk);
    const at = full.indexOf('/');
    const agbot = { org: full.slice(0, at), id: full.slice(at + 1) };
    const sealed = item.sealed as SealedValue;
    if (sealed.keyId === ids.toId) {
      result.skipped++;
      continue;
    }
    if (sealed.keyId !== ids.fromId) {
      result.unreadable.push(`agbot ${full} messaging key`);
      continue;
    }
    const context = sealingContext(agbot);
    const next = await seal(to, await open(from, sealed, context), context);
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: agbotStateKeys.messagingKey(agbot.org, agbot.id),
        UpdateExpression: 'SET sealed = :next',
        ConditionExpression: 'sealed.ciphertext = :read',
        ExpressionAttributeValues: { ':next': next, ':read': sealed.ciphertext },
      }),
    );
    result.resealed++;
  }
  return result;
}
