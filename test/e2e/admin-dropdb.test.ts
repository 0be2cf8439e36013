import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import type { Credentials } from '#test/support/http';
import { defineMatrix, type World } from '#test/support/matrix';
import { checkResponse } from '#test/support/openapi';
import { createOrgWorld, createUser, expectStatus, freshId } from '#test/support/world';
import { useOffline } from './support/offline.ts';

/**
 * dropdb, initdb and the one-time drop token over HTTP (docs/compatibility.md#administration: the token is a
 * real one-time token, valid 10 minutes, presented as root's password). These cases wipe the
 * table, so they have a server of their own; each starts from whatever the previous one left.
 */
const configDir = mkdtempSync(join(tmpdir(), 'e2e-dropdb-'));
const configFile = join(configDir, 'exchange.json');
const defaultConfig = JSON.parse(
  readFileSync(new URL('../../config/exchange.json', import.meta.url), 'utf8'),
);
writeFileSync(configFile, JSON.stringify(defaultConfig));
afterAll(() => rmSync(configDir, { recursive: true, force: true }));

const server = useOffline({ env: { EXCHANGE_CONFIG_FILE: configFile } });
const root = (): Credentials => ({ user: 'root/root', secret: server.rootPassword });
const withToken = (token: string): Credentials => ({ user: 'root/root', secret: token });

async function dropToken(): Promise<string> {
  const result = expectStatus(
    await server.http('GET', '/v1/admin/dropdb/token', { auth: root() }),
    200,
    'token',
  );
  expect(checkResponse('GET /v1/admin/dropdb/token', 200, result.body)).toEqual([]);
  expect(result.body.token).toMatch(/^\S{16,}$/);
  return result.body.token;
}

const dropdb = (auth: Credentials) => server.http('POST', '/v1/admin/dropdb', { auth });
const initdb = async () =>
  expectStatus(await server.http('POST', '/v1/admin/initdb', { auth: root() }), 201, 'initdb');

/** Identities for the cases below, recreated (after initdb) whenever a drop removed them. */
let cached: World | undefined;
async function ensureWorld(): Promise<World> {
  const probe =
    cached && (await server.http('GET', `/v1/orgs/${cached.same.org}`, { auth: cached.same.admin }));
  if (cached && probe?.status === 200) return cached;
  await initdb();
  const fixtures = { http: server.http, root: root() };
  const hubAdmin = await createUser(fixtures, 'root', freshId('hub'), { hubAdmin: true });
  const same = await createOrgWorld(fixtures, freshId('dd'));
  cached = { ...fixtures, hubAdmin, same, other: same, targetUser: same.user };
  return cached;
}

describe('who may drop the database', () => {
  defineMatrix(
    [
      {
        operation: 'POST /v1/admin/dropdb',
        variant: 'credentials other than a drop token',
        prepare: () => ({ path: '/v1/admin/dropdb' }),
        expect: { root: 401, 'hub admin': 403, 'org admin': 403, user: 403, node: 403, agbot: 403 },
      },
      {
        operation: 'POST /v1/admin/dropdb',
        variant: 'a made-up token',
        prepare: () => ({ path: '/v1/admin/dropdb', as: withToken('not-a-token-that-was-issued') }),
        expect: { root: 401 },
      },
    ],
    ensureWorld,
    server.http,
  );

  it('DELETE /v1/orgs/root is refused to root and hub admins alike → 403', async () => {
    const world = await ensureWorld();
    for (const auth of [root(), world.hubAdmin]) {
      const result = await server.http('DELETE', '/v1/orgs/root', { auth });
      expect(result.status, result.text).toBe(403);
    }
    expect((await server.http('GET', '/v1/orgs/root', { auth: root() })).status).toBe(200);
  });
});

describe('dropdb / initdb round trip', () => {
  it('drops every record with a token, then initdb restores a working Exchange', async () => {
    const world = await ensureWorld();
    const token = await dropToken();

    const dropped = await dropdb(withToken(token));
    expect(dropped.status, dropped.text).toBe(201);
    expect(dropped.body).toEqual({ code: 'ok', msg: 'db deleted successfully' });
    expect(checkResponse('POST /v1/admin/dropdb', 201, dropped.body)).toEqual([]);

    // Data gone: the org and its user no longer exist, and no org is left, not even root's.
    expect((await server.http('GET', `/v1/orgs/${world.same.org}`, { auth: root() })).status).toBe(404);
    // Asked of the function that dropped (org status is an admin route): it forgot every identity at
    // once; the other functions, which may remember this caller, see it within authCacheSeconds.
    const gone = await server.http('GET', `/v1/orgs/${world.same.org}/status`, { auth: world.same.admin });
    expect(gone.status).toBe(401);
    expect(gone.body).toEqual({ code: 'invalid-credentials', msg: 'unauthorized' });
    const none = await server.http('GET', '/v1/orgs', { auth: root() });
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ orgs: {}, lastIndex: 0 });

    const restored = await server.http('POST', '/v1/admin/initdb', { auth: root() });
    expect(restored.status, restored.text).toBe(201);
    expect(restored.body).toEqual({ code: 'ok', msg: 'db initialized successfully' });

    // Root works again: the bootstrap orgs are back and new records can be made.
    const orgs = await server.http('GET', '/v1/orgs', { auth: root() });
    expect(orgs.status).toBe(200);
    expect(Object.keys(orgs.body.orgs).sort()).toEqual(['IBM', 'root']);
    expect(checkResponse('GET /v1/orgs', 200, orgs.body)).toEqual([]);
    const org = freshId('again');
    const created = await server.http('POST', `/v1/orgs/${org}`, {
      auth: root(),
      body: { label: 'again', description: 'after initdb' },
    });
    expect(created.status, created.text).toBe(201);
    expect((await server.http('GET', `/v1/orgs/${org}`, { auth: root() })).status).toBe(200);
  });

  it('a second initdb is harmless → 201', async () => {
    await ensureWorld();
    expect((await server.http('POST', '/v1/admin/initdb', { auth: root() })).status).toBe(201);
    expect((await server.http('GET', '/v1/orgs/root', { auth: root() })).status).toBe(200);
  });
});

describe('the drop token', () => {
  it('works once: a second dropdb with the same token → 401', async () => {
    await ensureWorld();
    const token = await dropToken();
    expect((await dropdb(withToken(token))).status).toBe(201);
    const again = await dropdb(withToken(token));
    expect(again.status, again.text).toBe(401);
    expect(again.body.code).toBe('invalid-credentials');
    await initdb();
  });

  it('a newer token replaces an older one', async () => {
    await ensureWorld();
    const older = await dropToken();
    const newer = await dropToken();
    expect(newer).not.toBe(older);
    expect((await dropdb(withToken(older))).status).toBe(401);
    expect((await dropdb(withToken(newer))).status).toBe(201);
    await initdb();
  });

  it('expires: with dropTokenTtlSeconds = 1 (config file + reload) a token 2 s old → 401', async () => {
    await ensureWorld();
    writeFileSync(configFile, JSON.stringify({ ...defaultConfig, dropTokenTtlSeconds: 1 }));
    try {
      expect((await server.http('POST', '/v1/admin/reload', { auth: root() })).status).toBe(201);
      // Each function rereads a changed config file at most once a second.
      await sleep(1100);
      const token = await dropToken();
      await sleep(2000);
      const late = await dropdb(withToken(token));
      expect(late.status, late.text).toBe(401);
      expect((await server.http('GET', '/v1/orgs/root', { auth: root() })).status).toBe(200);
    } finally {
      writeFileSync(configFile, JSON.stringify(defaultConfig));
      await server.http('POST', '/v1/admin/reload', { auth: root() });
    }
  });
});
