import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { documentClient, tableName } from '#tables/client';
import { createOrg, createUser } from '#test/support/identities';
import { useTestTable } from '#test/support/table';
import { sequencePending } from './sequence.ts';
import { type Auth, call, useTempMasterKey } from './support.ts';

useTestTable();
useTempMasterKey();

let admin: Auth;
let alice: Auth;
beforeAll(async () => {
  await createOrg('so');
  admin = await createUser('so', 'boss', { admin: true });
  alice = await createUser('so', 'alice');
});

describe('one secret', () => {
  it('PUT creates (201), GET reads it back, PUT overwrites, DELETE removes (204), then 404', async () => {
    expect((await call('PUT', '/orgs/so/secrets/db/password', admin, { key: 'u', value: 'v1' })).status).toBe(
      201,
    );
    expect(await call('GET', '/orgs/so/secrets/db/password', admin)).toMatchObject({
      status: 200,
      body: { key: 'u', value: 'v1' },
    });
    expect((await call('POST', '/orgs/so/secrets/db/password', admin, { key: 'u2', value: '' })).status).toBe(
      201,
    );
    expect((await call('GET', '/orgs/so/secrets/db/password', admin)).body).toEqual({ key: 'u2', value: '' });
    expect((await call('DELETE', '/orgs/so/secrets/db/password', admin)).status).toBe(204);
    expect((await call('GET', '/orgs/so/secrets/db/password', admin)).status).toBe(404);
    expect((await call('DELETE', '/orgs/so/secrets/db/password', admin)).status).toBe(404);
  });

  it('takes the node, user and user-node forms', async () => {
    for (const name of ['node/n1/x', 'user/alice/x', 'user/alice/node/n1/x']) {
      const who = name.startsWith('user/') ? alice : admin;
      expect((await call('PUT', `/orgs/so/secrets/${name}`, who, { key: 'k', value: name })).status).toBe(
        201,
      );
      expect((await call('GET', `/orgs/so/secrets/${name}`, who)).body.value).toBe(name);
    }
  });

  it('writes a change row per create, update and delete, naming the secret, never the value', async () => {
    await call('PUT', '/orgs/so/secrets/feed', admin, { key: 'k', value: 'feed-marker-value' });
    await call('PUT', '/orgs/so/secrets/feed', admin, { key: 'k', value: 'feed-marker-value2' });
    await call('DELETE', '/orgs/so/secrets/feed', admin);
    const rows = (await sequencePending('so')).filter((row) => row.id === 'feed');
    expect(rows.map((row) => [row.resource, row.operation])).toEqual([
      ['secret', 'created/modified'],
      ['secret', 'created/modified'],
      ['secret', 'deleted'],
    ]);
    expect(JSON.stringify(rows)).not.toContain('feed-marker');
  });
});

describe('lists', () => {
  beforeAll(async () => {
    const names = ['a', 'b/c', 'node/n2/y', 'node/n3/z'];
    for (const name of names)
      await call('PUT', `/orgs/so/secrets/${name}`, admin, { key: 'k', value: 'LIST-MARKER' });
    for (const name of ['user/alice/p', 'user/alice/node/n2/q'])
      await call('PUT', `/orgs/so/secrets/${name}`, alice, { key: 'k', value: 'LIST-MARKER' });
  });

  it('list each tree with its prefix removed, names only', async () => {
    const org = await call('GET', '/orgs/so/secrets', alice);
    expect(org.status).toBe(200);
    expect(org.body).toEqual(expect.arrayContaining(['a', 'b/c']));
    expect(org.body.some((name: string) => name.startsWith('user/') || name.startsWith('node/'))).toBe(false);
    expect((await call('GET', '/orgs/so/secrets/node/n2', alice)).body).toEqual(['y']);
    expect((await call('GET', '/orgs/so/secrets/user/alice', alice)).body).toEqual(['p', 'x']);
    expect((await call('GET', '/orgs/so/secrets/user/alice/node/n2', alice)).body).toEqual(['q']);
    expect((await call('GET', '/orgs/so/secrets/node/none', alice)).body).toEqual([]);
    expect(org.text).not.toContain('LIST-MARKER');
  });

  it('allsecrets: admins see every name; plain users no user tree, not even their own', async () => {
    const all = (await call('GET', '/orgs/so/allsecrets', admin)).body as string[];
    expect(all).toEqual(
      expect.arrayContaining(['a', 'b/c', 'node/n2/y', 'user/alice/p', 'user/alice/node/n2/q']),
    );
    const plain = (await call('GET', '/orgs/so/allsecrets', alice)).body as string[];
    expect(plain).toEqual(expect.arrayContaining(['a', 'node/n2/y']));
    expect(plain.some((name) => name.startsWith('user/'))).toBe(false);
  });

  it('?details=true gives each name with its lastUpdated', async () => {
    const { body } = await call('GET', '/orgs/so/secrets/node/n2', admin, undefined, { details: 'true' });
    expect(body).toEqual([{ name: 'y', lastUpdated: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) }]);
  });
});

describe('name forms (docs/exchange-catalog.md#secret-names)', () => {
  it.each([
    ['user', 'User must be specified'],
    ['node', 'Node must be specified'],
    ['user/alice', 'needs a name after user/<user>/'],
    ['node/n1', 'needs a name after node/<node>/'],
    ['user/alice/node', 'Node must be specified'],
    ['user/alice/node/n1', 'needs a name after user/<user>/node/<node>/'],
    ['a//b', 'a segment is empty'],
    ['a/', 'a segment is empty'],
    ['a.b', 'only letters, digits'],
    ['a%20b', 'only letters, digits'],
    ['x'.repeat(257), 'longer than 256'],
  ])('PUT %s → 400 (%s)', async (name, reason) => {
    const answer = await call('PUT', `/orgs/so/secrets/${name}`, admin, { key: 'k', value: 'v' });
    expect(answer.status).toBe(400);
    expect(answer.body.msg).toContain(reason);
  });

  it('GET of the bare user/node paths is 400, as upstream', async () => {
    expect((await call('GET', '/orgs/so/secrets/user', admin)).body.msg).toContain('User must be specified');
    expect((await call('GET', '/orgs/so/secrets/node', admin)).body.msg).toContain('Node must be specified');
  });

  it('takes the longest allowed name', async () => {
    const name = `${'x'.repeat(200)}/${'y'.repeat(55)}`;
    expect((await call('PUT', `/orgs/so/secrets/${name}`, admin, { key: 'k', value: 'v' })).status).toBe(201);
    expect((await call('GET', `/orgs/so/secrets/${name}`, admin)).status).toBe(200);
  });
});

describe('bad bodies → 400, nothing stored', () => {
  it.each([
    ['not JSON', '{"key":'],
    ['no key', { value: 'v' }],
    ['no value', { key: 'k' }],
    ['a non-string value', { key: 'k', value: 42 }],
    ['a non-string key', { key: ['k'], value: 'v' }],
    ['more than 64 KB', { key: 'k', value: 'v'.repeat(64 * 1024) }],
  ])('%s', async (_, body) => {
    const answer = await call('PUT', '/orgs/so/secrets/badbody', admin, body);
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('invalid-input');
    expect((await call('GET', '/orgs/so/secrets/badbody', admin)).status).toBe(404);
  });

  it('an empty body → 400', async () => {
    expect((await call('PUT', '/orgs/so/secrets/badbody', admin, '')).status).toBe(400);
  });
});

describe('plaintext never stored', () => {
  it('no raw table item holds the value or the key', async () => {
    const marker = 'PLAINTEXT-MARKER-7f3a9c';
    await call('PUT', '/orgs/so/secrets/scan/me', admin, { key: `${marker}-key`, value: marker });
    expect((await call('GET', '/orgs/so/secrets/scan/me', admin)).body.value).toBe(marker);
    const items: unknown[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await documentClient.send(
        new ScanCommand({ TableName: tableName(), ExclusiveStartKey: startKey }),
      );
      items.push(...(page.Items ?? []));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    expect(items.length).toBeGreaterThan(5);
    expect(JSON.stringify(items)).not.toContain(marker);
    expect(JSON.stringify(items)).not.toContain(Buffer.from(marker).toString('base64').slice(0, 16));
  });
});
