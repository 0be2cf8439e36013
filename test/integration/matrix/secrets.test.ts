import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { insertAgbotPolicy } from '#tables/agbot/policy-records';
import { createAgbot } from '#test/support/identities';
import { defineMatrix } from '#test/support/matrix';
import { useMatrixWorld } from '#test/support/matrix-world';
import { useOffline } from '../../e2e/support/offline.ts';
import { secretCases } from './cases/secrets.ts';

/**
 * Every secrets route (issue 12) × every kind of caller over HTTP through serverless-offline,
 * with a master key of the file's own. Expected statuses: docs/exchange-catalog.md#secret-permissions plus the agbot
 * delivery rule (the multi-tenant agbot serves `same`'s deployment policies).
 */
const keyDir = mkdtempSync(join(tmpdir(), 'secrets-e2e-'));
const server = useOffline({ env: { EXCHANGE_SECRETS_MASTER_KEY_FILE: join(keyDir, 'master-key') } });
const getWorld = useMatrixWorld(server, 'sx', async (world) => {
  const id = `mt-${randomBytes(3).toString('hex')}`;
  world.multiTenantAgbot = await createAgbot('IBM', id, 'root/root', {
    token: `mt-token-${randomBytes(4).toString('hex')}`,
  });
  const served = world.same.org;
  const at = new Date().toISOString();
  await insertAgbotPolicy({
    org: 'IBM',
    id,
    policyId: `${served}_*`,
    businessPolOrgid: served,
    businessPol: '*',
    nodeOrgid: served,
    lastUpdated: at,
  });
});

describe.concurrent('secrets', () => defineMatrix(secretCases, getWorld, server.http));

describe('secret names with `/` over HTTP', () => {
  it('a name sent with plain slashes is one secret; the list paths stay lists', async () => {
    const w = getWorld();
    const url = (path: string) => new URL(`/v1/orgs/${w.same.org}/secrets/${path}`, server.baseUrl);
    const auth = `Basic ${Buffer.from(`${w.same.admin.user}:${w.same.admin.secret}`).toString('base64')}`;
    const put = await fetch(url('deep/er/name'), {
      method: 'PUT',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({ key: 'k', value: 'slash-value' }),
    });
    expect(put.status).toBe(201);
    const got = await fetch(url('deep/er/name'), { headers: { authorization: auth } });
    expect(await got.json()).toEqual({ key: 'k', value: 'slash-value' });
    const encoded = await fetch(url('deep%2Fer%2Fname'), { headers: { authorization: auth } });
    expect(encoded.status).toBe(200);
    const nodes = await fetch(url('node/none'), { headers: { authorization: auth } });
    expect(await nodes.json()).toEqual([]);
    const bare = await fetch(url('user'), { headers: { authorization: auth } });
    expect(bare.status).toBe(400);
  });
});
