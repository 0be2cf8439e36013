import { randomBytes } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { SecretIntegrityError } from '#lib/secrets/envelope';
import { localKeyProvider } from '#lib/secrets/local-key-provider';
import { agbotStateKeys } from '#tables/agbot-state/keys';
import { dynamoAgbotStore } from '#tables/agbot-state/store';
import { documentClient, tableName } from '#tables/client';
import { resealAllSecrets } from '#tables/secret/rotation';
import { useTestTable } from '#test/support/table';
import { messagingKeys } from '../../../agbot/keys.ts';
import { agbotStoreContract, sampleAgreement } from '../../../agbot/test-support/store-contract.ts';

useTestTable();

/** A local master key of the test's own: the envelope is real, only KMS is not here. */
const provider = localKeyProvider(randomBytes(32));
let agbots = 0;
const freshAgbot = () => ({ org: 'acme', id: `bot${++agbots}` });

agbotStoreContract('DynamoDB', async () => {
  const agbot = freshAgbot();
  return { open: async () => dynamoAgbotStore(agbot, () => provider) };
});

describe('the DynamoDB agbot store', () => {
  it('keeps the messaging key sealed with the envelope, never the PEM', async () => {
    const agbot = freshAgbot();
    const store = dynamoAgbotStore(agbot, () => provider);
    const keys = await messagingKeys(store);
    const pem = (await store.messagingKey()) as string;
    expect(pem).toContain('PRIVATE KEY');

    const { Item } = await documentClient.send(
      new GetCommand({ TableName: tableName(), Key: agbotStateKeys.messagingKey(agbot.org, agbot.id) }),
    );
    const raw = JSON.stringify(Item);
    expect(raw).not.toContain('PRIVATE KEY');
    const body = pem.split('\n')[1] as string;
    expect(raw).not.toContain(body);
    expect(Item?.sealed).toMatchObject({ keyId: expect.stringMatching(/^local:/) });

    // The same key on the next invocation; under another master key it does not open.
    expect((await messagingKeys(dynamoAgbotStore(agbot, () => provider))).publishedPublicKey).toBe(
      keys.publishedPublicKey,
    );
    const stranger = dynamoAgbotStore(agbot, () => localKeyProvider(randomBytes(32)));
    await expect(stranger.messagingKey()).rejects.toBeInstanceOf(SecretIntegrityError);
  });

  it('re-seals the key with the secrets when the master key rotates', async () => {
    const agbot = freshAgbot();
    const pem = await dynamoAgbotStore(agbot, () => provider).keepMessagingKey(
      '-----BEGIN PRIVATE KEY-----\nrotate',
    );
    const next = localKeyProvider(randomBytes(32));
    const result = await resealAllSecrets(provider, next);
    expect(result.unreadable).toEqual([]);
    expect(result.resealed).toBeGreaterThanOrEqual(1);
    expect(await dynamoAgbotStore(agbot, () => next).messagingKey()).toBe(pem);
    await expect(dynamoAgbotStore(agbot, () => provider).messagingKey()).rejects.toBeInstanceOf(
      SecretIntegrityError,
    );
    await resealAllSecrets(next, provider); // back, for the tests after this one
  });

  it('keeps each agbot to its own partition', async () => {
    const [one, two] = [freshAgbot(), freshAgbot()];
    await dynamoAgbotStore(one, () => provider).saveAgreement(sampleAgreement);
    const other = dynamoAgbotStore(two, () => provider);
    expect(await other.listAgreements(false)).toEqual([]);
    expect(await other.liveAgreementNodes('acme/pol', ['acme/n1'])).toEqual(new Set());
    expect(await other.saveAgreement(sampleAgreement)).toBe('saved');
  });
});
