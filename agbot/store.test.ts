import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { messagingKeys } from './keys.ts';
import { type AgbotAgreement, AgbotStore } from './store.ts';

const dir = mkdtempSync(join(tmpdir(), 'agbot-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const agreement: AgbotAgreement = {
  agreementId: 'a1',
  nodeOrg: 'acme',
  nodeId: 'n1',
  policy: 'acme/pol',
  service: { org: 'acme', url: 'svc', version: '1.0.0', arch: 'amd64' },
  state: 'Formed Proposal',
  createdAt: 100,
  updatedAt: 100,
  archived: false,
};

describe('AgbotStore', () => {
  it('keeps agreements, the key pair and its meta across a restart, in a 0600 file', () => {
    const first = AgbotStore.open(dir);
    const keys = messagingKeys(first);
    first.saveAgreement(agreement);
    first.saveAgreement({
      ...agreement,
      agreementId: 'a0',
      archived: true,
      terminatedReason: 202,
      createdAt: 50,
    });
    first.close();
    expect(statSync(join(dir, 'agbot.db')).mode & 0o777).toBe(0o600);

    const second = AgbotStore.open(dir);
    expect(messagingKeys(second).publishedPublicKey).toBe(keys.publishedPublicKey);
    expect(second.listAgreements(false)).toEqual([agreement]);
    expect(second.listAgreements(true)).toEqual([
      { ...agreement, agreementId: 'a0', archived: true, terminatedReason: 202, createdAt: 50 },
    ]);
    second.saveAgreement({ ...agreement, state: 'Finalized Agreement', updatedAt: 130 });
    expect(second.getAgreement('a1')).toMatchObject({
      state: 'Finalized Agreement',
      updatedAt: 130,
      createdAt: 100,
    });
    second.close();
  });

  it('keeps the pattern of a pattern agreement (a column added by migration 3)', () => {
    const store = AgbotStore.open(dir);
    const ofPattern = {
      ...agreement,
      agreementId: 'a-pat',
      policy: 'acme/pat_svc_acme_amd64',
      pattern: 'acme/pat',
    };
    store.saveAgreement(ofPattern);
    store.close();
    const again = AgbotStore.open(dir);
    expect(again.getAgreement('a-pat')).toEqual(ofPattern);
    expect(again.getAgreement('a1')).not.toHaveProperty('pattern');
    again.close();
  });

  it('publishes the public key as base64 DER SubjectPublicKeyInfo of an RSA-2048 key', () => {
    const store = AgbotStore.open(dir);
    const keys = messagingKeys(store);
    store.close();
    const der = Buffer.from(keys.publishedPublicKey, 'base64');
    expect(der[0]).toBe(0x30);
    expect(keys.publicKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
  });
});
