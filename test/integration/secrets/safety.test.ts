import { readFileSync } from 'node:fs';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { masterKeyFile, useKeyProvider } from '#lib/secrets/provider';
import { documentClient, tableName } from '#tables/client';
import { secretKeys } from '#tables/secret/keys';
import { captureOutput } from '#test/support/capture-output';
import { createOrg, createUser } from '#test/support/identities';
import { useTestTable } from '#test/support/table';
import { type Answer, type Auth, call, useTempMasterKey } from './support.ts';

useTestTable();
useTempMasterKey();

let admin: Auth;
beforeAll(async () => {
  await createOrg('ta');
  admin = await createUser('ta', 'boss', { admin: true });
});

const rawItem = async (name: string) =>
  (await documentClient.send(new GetCommand({ TableName: tableName(), Key: secretKeys.record('ta', name) })))
    .Item;

describe('tamper', () => {
  it("a sealed value moved into another secret's item fails its integrity check: 409, logged, no value, no 5xx", async () => {
    await call('PUT', '/orgs/ta/secrets/victim', admin, { key: 'k', value: 'victim-value' });
    await call('PUT', '/orgs/ta/secrets/source', admin, { key: 'k', value: 'TAMPER-MARKER-source' });
    const source = await rawItem('source');
    const victim = await rawItem('victim');
    await documentClient.send(
      new PutCommand({ TableName: tableName(), Item: { ...victim, sealed: source?.sealed } }),
    );
    const { result, output } = await captureOutput(() => call('GET', '/orgs/ta/secrets/victim', admin));
    expect(result.status).toBe(409);
    expect(result.body.code).toBe('invalid-input');
    expect(result.body.msg).toContain('integrity');
    expect(result.text).not.toContain('TAMPER-MARKER');
    const line = JSON.parse(
      output
        .trim()
        .split('\n')
        .find((l) => l.includes('integrity')) ?? '{}',
    );
    expect(line).toMatchObject({ level: 'ERROR', org: 'ta', name: 'victim' });
    expect(output).not.toContain('TAMPER-MARKER');
    // The source still reads, and rewriting the victim repairs it.
    expect((await call('GET', '/orgs/ta/secrets/source', admin)).body.value).toBe('TAMPER-MARKER-source');
    await call('PUT', '/orgs/ta/secrets/victim', admin, { key: 'k', value: 'again' });
    expect((await call('GET', '/orgs/ta/secrets/victim', admin)).body.value).toBe('again');
  });

  it("a moved data key alone, or another org's item, fails the same way", async () => {
    await call('PUT', '/orgs/ta/secrets/one', admin, { key: 'k', value: 'v1' });
    await call('PUT', '/orgs/ta/secrets/two', admin, { key: 'k', value: 'v2' });
    const one = await rawItem('one');
    const two = await rawItem('two');
    await documentClient.send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...two, sealed: { ...two?.sealed, dataKey: one?.sealed.dataKey } },
      }),
    );
    const { result } = await captureOutput(() => call('GET', '/orgs/ta/secrets/two', admin));
    expect(result.status).toBe(409);
  });
});

describe('logs', () => {
  it('never hold the value, the key or the master key, whatever the request does', async () => {
    const value = 'LOG-MARKER-value-93e1';
    let failed: Answer | undefined;
    const { output } = await captureOutput(async () => {
      await call('PUT', '/orgs/ta/secrets/logged', admin, { key: 'LOG-MARKER-key', value });
      await call('GET', '/orgs/ta/secrets/logged', admin);
      await call('GET', '/orgs/ta/secrets', admin);
      await call('PUT', '/orgs/ta/secrets/bad.name', admin, { key: 'LOG-MARKER-key', value });
      await call('PUT', '/orgs/ta/secrets/logged', admin, { key: 'LOG-MARKER-key', value: 42, extra: value });
      await call('PUT', '/orgs/ta/secrets/logged', admin, `{"key":"LOG-MARKER-key","value":"${value}"`);
      await call('PUT', '/orgs/ta/secrets/logged', { user: 'ta/boss', secret: 'wrong' }, { key: 'k', value });
      // A failing key provider (KMS down): a 500, logged by the error handler.
      useKeyProvider({
        name: 'kms',
        generateDataKey: () => Promise.reject(new Error('KMS unavailable')),
        unwrapDataKey: () => Promise.reject(new Error('KMS unavailable')),
      });
      try {
        failed = await call('PUT', '/orgs/ta/secrets/logged', admin, { key: 'LOG-MARKER-key', value });
        await call('GET', '/orgs/ta/secrets/logged', admin);
      } finally {
        useKeyProvider(undefined);
      }
      // A tampered value: the integrity error is logged.
      const item = await rawItem('logged');
      await documentClient.send(
        new PutCommand({ TableName: tableName(), Item: { ...item, sk: 'logged2', name: 'logged2' } }),
      );
      await call('GET', '/orgs/ta/secrets/logged2', admin);
    });
    expect(failed?.status).toBe(500);
    expect(failed?.text).not.toContain('LOG-MARKER');
    expect(output).toContain('KMS unavailable');
    expect(output).toContain('secret integrity error');
    const masterKey = readFileSync(masterKeyFile(), 'utf8').trim();
    expect(output).not.toContain('LOG-MARKER');
    expect(output).not.toContain(masterKey);
  });
});
