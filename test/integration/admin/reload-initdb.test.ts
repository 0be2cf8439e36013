import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { handler as initdb } from '#functions/admin/initdb';
import { handler as reload } from '#functions/admin/reload';
import { getConfig } from '#lib/config';
import { getOrg } from '#tables/org/records';
import { createAgbot, createNode, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';
import { tempDir } from '#test/support/temp-dir';

useTestTable();

type Auth = { user: string; secret: string };
const who: Record<string, Auth> = {};

beforeAll(async () => {
  await createOrg('acme');
  who.hub = await createUser('root', 'hub', { hubAdmin: true });
  who.admin = await createUser('acme', 'admin', { admin: true });
  who.bob = await createUser('acme', 'bob');
  who.node = await createNode('acme', 'n1', 'acme/bob');
  who.agbot = await createAgbot('acme', 'a1', 'acme/admin');
});

describe('POST /v1/admin/reload', () => {
  const original = process.env.EXCHANGE_CONFIG_FILE;
  afterEach(() => {
    if (original === undefined) delete process.env.EXCHANGE_CONFIG_FILE;
    else process.env.EXCHANGE_CONFIG_FILE = original;
  });

  it('rereads the config file, and keeps the old settings when the new file is invalid', async () => {
    const file = join(tempDir('exchange-config-'), 'exchange.json');
    process.env.EXCHANGE_CONFIG_FILE = file;
    writeFileSync(file, JSON.stringify({ dropTokenTtlSeconds: 123, limits: { maxNodes: 7 } }));
    const done = await invoke(reload, { auth: ROOT });
    expect(done.status).toBe(201);
    expect(done.body).toEqual({ code: 'ok', msg: 'reload successful' });
    expect(getConfig().dropTokenTtlSeconds).toBe(123);
    expect(getConfig().limits.maxNodes).toBe(7);

    writeFileSync(file, JSON.stringify({ limits: { maxNodes: -1 } }));
    const failed = await invoke(reload, { auth: ROOT });
    expect(failed.status).toBe(500);
    expect(failed.body.code).toBe('internal_error');
    expect(failed.body.msg).toContain('previous settings kept');
    expect(failed.body.msg).toContain('limits.maxNodes');
    expect(getConfig().dropTokenTtlSeconds).toBe(123);

    writeFileSync(file, '{ not json');
    const garbled = await invoke(reload, { auth: ROOT });
    expect(garbled.status).toBe(500);
    expect(garbled.body.msg).toContain('exchange.json');
    expect(getConfig().limits.maxNodes).toBe(7);
  });

  it('is root only', async () => {
    for (const caller of [who.hub, who.admin, who.bob, who.node, who.agbot]) {
      const result = await invoke(reload, { auth: caller as Auth });
      expect(result.status).toBe(403);
      expect(result.body.msg).toContain('ADMIN');
    }
    expect((await invoke(reload, { auth: { ...ROOT, secret: 'wrong' } })).status).toBe(401);
    expect((await invoke(reload)).status).toBe(401);
  });
});

describe('POST /v1/admin/initdb', () => {
  it('answers 201 every time and leaves existing data alone', async () => {
    for (let i = 0; i < 2; i++) {
      const result = await invoke(initdb, { auth: ROOT });
      expect(result.status).toBe(201);
      expect(result.body).toEqual({ code: 'ok', msg: 'db initialized successfully' });
    }
    expect(await getOrg('acme')).toBeDefined();
    expect((await getOrg('IBM'))?.orgType).toBe('IBM');
  });

  it('is root only', async () => {
    for (const caller of [who.hub, who.admin, who.bob, who.node, who.agbot]) {
      expect((await invoke(initdb, { auth: caller as Auth })).status).toBe(403);
    }
    expect((await invoke(initdb)).status).toBe(401);
  });
});
