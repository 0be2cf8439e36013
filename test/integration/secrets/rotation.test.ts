import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useKeyProvider } from '#lib/secrets/provider';
import { getSecret } from '#tables/secret/records';
import { captureOutput } from '#test/support/capture-output';
import { createOrg, createUser } from '#test/support/identities';
import { useTestTable } from '#test/support/table';
import { rotateMasterKey } from '../../../scripts/local/rotate-master-key.ts';
import { type Auth, call, useTempMasterKey } from './support.ts';

useTestTable();
const keyFile = useTempMasterKey();

let admin: Auth;
let alice: Auth;
beforeAll(async () => {
  await Promise.all([createOrg('ro'), createOrg('ro2')]);
  admin = await createUser('ro', 'boss', { admin: true });
  alice = await createUser('ro', 'alice');
  const admin2 = await createUser('ro2', 'boss', { admin: true });
  await call('PUT', '/orgs/ro/secrets/a', admin, { key: 'k', value: 'va' });
  await call('PUT', '/orgs/ro/secrets/node/n/b', admin, { key: 'k', value: 'vb' });
  await call('PUT', '/orgs/ro/secrets/user/alice/c', alice, { key: 'k', value: 'vc' });
  await call('PUT', '/orgs/ro2/secrets/d', admin2, { key: 'k', value: 'vd' });
});

describe('rotating the local master key (scripts/rotate-secrets-key.ts)', () => {
  it('re-seals every secret of every org under a new key, keeps the old key file, and everything still reads', async () => {
    const oldKey = readFileSync(keyFile, 'utf8');
    const before = (await getSecret('ro', 'a'))?.sealed;
    const result = await rotateMasterKey(keyFile);
    expect(result).toMatchObject({ resealed: 4, skipped: 0, unreadable: [], swapped: true });
    expect(readFileSync(keyFile, 'utf8')).not.toBe(oldKey);
    expect(readFileSync(result.retired as string, 'utf8')).toBe(oldKey);
    expect(existsSync(`${keyFile}.next`)).toBe(false);
    const after = (await getSecret('ro', 'a'))?.sealed;
    expect(after?.keyId).not.toBe(before?.keyId);
    expect(after?.dataKey).not.toBe(before?.dataKey);

    // A fresh instance (the next start) loads the new key from the file.
    useKeyProvider(undefined);
    expect((await call('GET', '/orgs/ro/secrets/a', admin)).body).toEqual({ key: 'k', value: 'va' });
    expect((await call('GET', '/orgs/ro/secrets/node/n/b', admin)).body.value).toBe('vb');
    expect((await call('GET', '/orgs/ro/secrets/user/alice/c', alice)).body.value).toBe('vc');
    expect(readdirSync(dirname(keyFile)).length).toBe(2);
  });

  it('a second run re-seals again (idempotent reads afterwards)', async () => {
    const result = await rotateMasterKey(keyFile);
    expect(result).toMatchObject({ resealed: 4, swapped: true });
    useKeyProvider(undefined);
    expect((await call('GET', '/orgs/ro/secrets/a', admin)).body.value).toBe('va');
  });

  it('the old key no longer opens anything', async () => {
    const retired = readdirSync(dirname(keyFile)).find((f) => f.includes('retired'));
    expect(retired).toBeDefined();
    process.env.EXCHANGE_SECRETS_MASTER_KEY_FILE = `${dirname(keyFile)}/${retired}`;
    useKeyProvider(undefined);
    const { result, output } = await captureOutput(() => call('GET', '/orgs/ro/secrets/a', admin));
    expect(result.status).toBe(409);
    expect(output).toContain('secret integrity error');
    process.env.EXCHANGE_SECRETS_MASTER_KEY_FILE = keyFile;
    useKeyProvider(undefined);
  });
});
