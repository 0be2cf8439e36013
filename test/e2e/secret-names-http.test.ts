import { beforeAll, describe, expect, it } from 'vitest';
import type { Credentials } from '#test/support/http';
import { createOrg, createUser, freshId } from '#test/support/world';
import { useSharedOffline } from './support/shared-offline.ts';

/**
 * A secret's name may hold `/`, which no exact route can: what the HTTP stack does with such a
 * path before the secrets Lambda sees it (the route's mount, the path as serverless-offline hands
 * it over, still percent-encoded). The permissions of every secrets route are the integration
 * matrix's (test/integration/matrix/secrets.test.ts), which sends a name's `/` as `%2F`.
 */
const server = useSharedOffline();
const ORG = freshId('secret-names');
let admin: Credentials;

beforeAll(async () => {
  const fixtures = { http: server.http, root: { user: 'root/root', secret: server.rootPassword } };
  await createOrg(fixtures, ORG);
  admin = await createUser(fixtures, ORG, 'admin', { admin: true });
}, 60_000);

describe('secret names with `/` over HTTP', () => {
  it('a name sent with plain slashes is one secret; the list paths stay lists', async () => {
    const url = (path: string) => new URL(`/v1/orgs/${ORG}/secrets/${path}`, server.baseUrl);
    const auth = `Basic ${Buffer.from(`${admin.user}:${admin.secret}`).toString('base64')}`;
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
