import { GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler as dropdb } from '#functions/admin/dropdb';
import { handler as dropdbToken } from '#functions/admin/dropdb-token';
import { handler as initdb } from '#functions/admin/initdb';
import { handler as getOrgHandler } from '#functions/orgs/get-org';
import type { Clock } from '#lib/time';
import { adminKeys } from '#tables/admin/keys';
import { bootstrap } from '#tables/bootstrap';
import { documentClient, tableName } from '#tables/client';
import { createAgbot, createNode, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';

useTestTable();

const clockAt = (date: Date): Clock => ({ now: () => date });
const rootWith = (token: string) => ({ user: 'root/root', secret: token });

async function newToken(clock?: Clock): Promise<string> {
  const result = await invoke(clock ? dropdbToken.withDeps({ clock }) : dropdbToken, { auth: ROOT });
  expect(result.status).toBe(200);
  return result.body.token;
}

async function itemCount(): Promise<number> {
  const { Count } = await documentClient.send(new ScanCommand({ TableName: tableName(), Select: 'COUNT' }));
  return Count ?? 0;
}

beforeEach(async () => {
  await bootstrap();
  await createOrg('acme').catch(() => undefined);
});

describe('GET /v1/admin/dropdb/token', () => {
  it('returns a random token and stores only its hash, with an expiry and a ttl', async () => {
    const now = new Date();
    const token = await newToken(clockAt(now));
    expect(token).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    expect(await newToken()).not.toBe(token);
    const { Item } = await documentClient.send(
      new GetCommand({ TableName: tableName(), Key: adminKeys.dropToken() }),
    );
    expect(JSON.stringify(Item)).not.toContain(token);
    expect(Item?.tokenHash).toMatch(/^\$scrypt\$/);
    expect(Item?.ttl).toBeGreaterThan(Math.floor(now.getTime() / 1000));
  });

  it('is root only', async () => {
    const hub = await createUser('root', 'hub', { hubAdmin: true });
    const admin = await createUser('acme', 'admin', { admin: true });
    for (const caller of [hub, admin]) expect((await invoke(dropdbToken, { auth: caller })).status).toBe(403);
    expect((await invoke(dropdbToken)).status).toBe(401);
    expect((await invoke(dropdbToken, { auth: { ...ROOT, secret: 'wrong' } })).status).toBe(401);
  });
});

describe('POST /v1/admin/dropdb', () => {
  it('deletes everything with a valid token; initdb brings the service back', async () => {
    const user = await createUser('acme', 'bob');
    await createNode('acme', 'n1', 'acme/bob');
    await createAgbot('acme', 'a1', 'acme/bob');
    for (let i = 0; i < 60; i++) await createOrg(`bulk${i}`); // more items than one BatchWrite holds
    const token = await newToken();
    const dropped = await invoke(dropdb, { auth: rootWith(token) });
    expect(dropped.status).toBe(201);
    expect(dropped.body).toEqual({ code: 'ok', msg: 'db deleted successfully' });
    expect(await itemCount()).toBe(0);
    expect((await invoke(getOrgHandler, { auth: user, path: { organization: 'acme' } })).status).toBe(401);
    // Root authenticates from configuration, so it can still restore the basics.
    expect((await invoke(initdb, { auth: ROOT })).status).toBe(201);
    const root = await invoke(getOrgHandler, { auth: ROOT, path: { organization: 'root' } });
    expect(root.status).toBe(200);
    expect((await invoke(getOrgHandler, { auth: ROOT, path: { organization: 'IBM' } })).status).toBe(200);
    expect((await invoke(getOrgHandler, { auth: ROOT, path: { organization: 'acme' } })).status).toBe(404);
  });

  it('accepts a token only once', async () => {
    const token = await newToken();
    expect((await invoke(dropdb, { auth: rootWith(token) })).status).toBe(201);
    await bootstrap();
    const again = await invoke(dropdb, { auth: rootWith(token) });
    expect(again.status).toBe(401);
    expect(again.body.code).toBe('invalid-credentials');
    expect(await itemCount()).toBeGreaterThan(0);
  });

  it('refuses an expired token (clock injected) and accepts it just before expiry', async () => {
    const issued = new Date();
    const token = await newToken(clockAt(issued));
    const later = (seconds: number) =>
      dropdb.withDeps({ clock: clockAt(new Date(issued.getTime() + seconds * 1000)) });
    expect((await invoke(later(601), { auth: rootWith(token) })).status).toBe(401);
    expect((await invoke(later(600), { auth: rootWith(token) })).status).toBe(401);
    expect(await itemCount()).toBeGreaterThan(0);
    expect((await invoke(later(599), { auth: rootWith(token) })).status).toBe(201);
  });

  it('lets only the newest token work', async () => {
    const first = await newToken();
    const second = await newToken();
    expect((await invoke(dropdb, { auth: rootWith(first) })).status).toBe(401);
    expect((await invoke(dropdb, { auth: rootWith(second) })).status).toBe(201);
  });

  it("refuses root's real password, other identities, and no credentials", async () => {
    await newToken();
    expect((await invoke(dropdb, { auth: ROOT })).status).toBe(401);
    expect((await invoke(dropdb, { auth: rootWith('not-the-token') })).status).toBe(401);
    expect((await invoke(dropdb)).status).toBe(401);
    const hub = await createUser('root', 'hub', { hubAdmin: true, admin: true });
    const denied = await invoke(dropdb, { auth: hub });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('access-denied');
    expect((await invoke(dropdb, { auth: { ...hub, secret: 'wrong' } })).status).toBe(401);
    expect(await itemCount()).toBeGreaterThan(0);
  });

  it('refuses an empty password', async () => {
    const fresh = await invoke(dropdb, { auth: rootWith('') });
    expect(fresh.status).toBe(401);
  });
});
