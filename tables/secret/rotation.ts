import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { open, type SealedValue, seal } from '#lib/secrets/envelope';
import type { KeyProvider } from '#lib/secrets/key-provider';
import { resealAgbotKeys } from '../agbot-state/rotation.ts';
import { documentClient, tableName } from '../client.ts';
import { queryAll } from '../kernel/query-all.ts';
import { orgKeys } from '../keys/org.ts';
import { secretKeys } from './keys.ts';

/**
 * Re-seals every secret sealed under `from` with a data key of `to` (rotation of the local master
 * key, scripts/rotate-secrets-key.ts). Orgs come from the org list (gsi1 `ORGS`), secrets from each
 * org's partition: no Scan. Each item is rewritten only if it still holds what was read, so a
 * secret written meanwhile (already under the new key, or the old one on another instance) is
 * left for a rerun. Resolves how many were re-sealed, how many were already under `to`, and the
 * names of any sealed under neither key.
 */
export async function resealAllSecrets(
  from: KeyProvider,
  to: KeyProvider,
): Promise<{ resealed: number; skipped: number; unreadable: string[] }> {
  const [fromId, toId] = await Promise.all([keyIdOf(from), keyIdOf(to)]);
  const result = { resealed: 0, skipped: 0, unreadable: [] as string[] };
  for (const org of await allOrgs()) {
    for (const item of await orgSecretItems(org)) {
      const context = { org, name: String(item.sk) };
      const sealed = item.sealed as SealedValue;
      if (sealed.keyId === toId) {
        result.skipped++;
        continue;
      }
      if (sealed.keyId !== fromId) {
        // Sealed under neither key (or tampered with): left as it is, named for the operator.
        result.unreadable.push(`${org}/${context.name}`);
        continue;
      }
      const next = await seal(to, await open(from, sealed, context), context);
      await documentClient.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: secretKeys.record(org, context.name),
          UpdateExpression: 'SET sealed = :next',
          ConditionExpression: 'sealed.ciphertext = :read',
          ExpressionAttributeValues: { ':next': next, ':read': sealed.ciphertext },
        }),
      );
      result.resealed++;
    }
  }
  // The in-stack agbots' messaging keys are sealed with the same envelope.
  const agbotKeys = await resealAgbotKeys(from, to, { fromId, toId });
  result.resealed += agbotKeys.resealed;
  result.skipped += agbotKeys.skipped;
  result.unreadable.push(...agbotKeys.unreadable);
  return result;
}

/** A provider's key id, as it stamps it on what it seals. */
async function keyIdOf(provider: KeyProvider): Promise<string> {
  const probe = await provider.generateDataKey({ org: '', name: '' });
  probe.plaintext.fill(0);
  return probe.keyId;
}

const allOrgs = async (): Promise<string[]> =>
  (
    await queryAll({
      TableName: tableName(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': orgKeys.allIndex },
      ProjectionExpression: 'gsi1sk',
    })
  ).map((item) => String(item.gsi1sk));

const orgSecretItems = (org: string) =>
  queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': secretKeys.record(org, '').pk },
    ConsistentRead: true,
  });
