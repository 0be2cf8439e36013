import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { messagingKeys } from '../keys.ts';
import { agbotStoreContract, sampleAgreement } from '../test-support/store-contract.ts';
import { SqliteAgbotStore } from './sqlite-store.ts';

const root = mkdtempSync(join(tmpdir(), 'agbot-store-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let states = 0;
agbotStoreContract('SQLite', async () => {
  const dir = join(root, `state-${++states}`);
  return { open: async () => SqliteAgbotStore.open(dir) };
});

describe('SqliteAgbotStore', () => {
  const dir = join(root, 'restart');

  it('keeps agreements, the key pair and the cursor across a restart, in a 0600 file', async () => {
    const first = SqliteAgbotStore.open(dir);
    const keys = await messagingKeys(first);
    await first.saveAgreement(sampleAgreement);
    await first.advanceFeedCursor(undefined, 42);
    await first.close();
    expect(statSync(join(dir, 'agbot.db')).mode & 0o777).toBe(0o600);

    const second = SqliteAgbotStore.open(dir);
    expect((await messagingKeys(second)).publishedPublicKey).toBe(keys.publishedPublicKey);
    expect(await second.listAgreements(false)).toEqual([sampleAgreement]);
    expect(await second.feedCursor()).toBe(42);
    await second.close();
  });

  it('publishes the public key as base64 DER SubjectPublicKeyInfo of an RSA-2048 key', async () => {
    const store = SqliteAgbotStore.open(dir);
    const keys = await messagingKeys(store);
    await store.close();
    const der = Buffer.from(keys.publishedPublicKey, 'base64');
    expect(der[0]).toBe(0x30);
    expect(keys.publicKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
  });
});
