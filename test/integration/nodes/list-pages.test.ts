import { beforeAll, describe, expect, it } from 'vitest';
import { handler as listNodes } from '#functions/nodes/list-nodes';
import { readNodeList } from '#functions/nodes/list-pages';
import { handler as putNode } from '#functions/nodes/put-node';
import { dynamoCallCount } from '#tables/client';
import { createOrg, createUser } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';

/** GET /v1/orgs/{org}/nodes in pages (`limit`, `after`, `next`: docs/exchange.md#node-list). */
useTestTable();

type Auth = { user: string; secret: string };
let admin: Auth;
let carol: Auth;
const NODES = 25;
const ids = Array.from({ length: NODES }, (_, i) => `n${String(i).padStart(2, '0')}`);
const list = (auth: Auth, query: Record<string, string> = {}) =>
  invoke(listNodes, { auth, path: { organization: 'paged' }, query });

/** Every page from the first, by `next`: the ids in the order answered, and the pages' sizes. */
async function follow(auth: Auth, query: Record<string, string>) {
  const seen: string[] = [];
  const sizes: number[] = [];
  let after: string | undefined;
  do {
    const result = await list(auth, { ...query, ...(after ? { after } : {}) });
    expect(result.status).toBe(200);
    const page = Object.keys(result.body.nodes);
    seen.push(...page);
    sizes.push(page.length);
    after = result.body.next;
  } while (after !== undefined);
  return { seen, sizes };
}

beforeAll(async () => {
  await createOrg('paged');
  admin = await createUser('paged', 'admin', { admin: true });
  carol = await createUser('paged', 'carol');
  const bob = await createUser('paged', 'bob');
  for (const [i, id] of ids.entries()) {
    const owner = i % 5 === 0 ? carol : bob;
    const put = await invoke(putNode, {
      auth: owner,
      path: { organization: 'paged', node: id },
      body: { name: id, arch: i % 2 === 0 ? 'arm64' : 'amd64' },
    });
    expect(put.status).toBe(201);
  }
});

describe('GET /v1/orgs/{organization}/nodes in pages', () => {
  it('limit=10: pages of 10, 10 and 5 in id order, each node once, no `next` on the last', async () => {
    const { seen, sizes } = await follow(admin, { limit: '10' });
    expect(seen).toEqual(ids.map((id) => `paged/${id}`));
    expect(sizes).toEqual([10, 10, 5]);
  });

  it('filters apply within each page; the pages together answer exactly the filtered list', async () => {
    const { seen, sizes } = await follow(admin, { limit: '10', arch: 'arm64' });
    expect(seen).toEqual(ids.filter((_, i) => i % 2 === 0).map((id) => `paged/${id}`));
    expect(sizes.every((size) => size <= 10)).toBe(true);
  });

  it('a plain user pages through their own nodes only', async () => {
    const { seen } = await follow(carol, { limit: '2' });
    expect(seen).toEqual(ids.filter((_, i) => i % 5 === 0).map((id) => `paged/${id}`));
  });

  it('after the last node: 200 and nothing (a list that ended); an empty first page is 404', async () => {
    const result = await list(admin, { limit: '10', after: 'n24' });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ nodes: {}, lastIndex: 0 });
    expect((await list(admin, { name: 'nobody%' })).status).toBe(404);
    // A first page that matched nothing but has more after it is a 200 with `next`.
    const emptyFirst = await list(admin, { limit: '10', name: 'nobody%' });
    expect([emptyFirst.status, emptyFirst.body.next]).toEqual([200, 'n09']);
  });

  it('without limit: the whole list, no `next` (it fits)', async () => {
    const result = await list(admin);
    expect(Object.keys(result.body.nodes)).toHaveLength(NODES);
    expect(result.body.next).toBeUndefined();
  });

  it('a bad limit or after is a 400 naming the parameter, and nothing is read', async () => {
    await list(admin, { limit: '1' }); // the identity verified and kept
    const before = dynamoCallCount();
    for (const limit of ['0', '1001', 'ten', '', '-1', '2.5']) {
      const result = await list(admin, { limit });
      expect(result.status, limit).toBe(400);
      expect(result.body.msg, limit).toContain('limit');
    }
    const tooLong = await list(admin, { after: 'x'.repeat(400) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.msg).toContain('after');
    expect(dynamoCallCount() - before).toBe(0);
  });

  it('a page costs one Query and one BatchGetItem (the liveness items), warm', async () => {
    await list(admin, { limit: '10' });
    const before = dynamoCallCount();
    expect((await list(admin, { limit: '10' })).status).toBe(200);
    expect(dynamoCallCount() - before).toBe(2);
  });
});

describe('the whole list past what one answer holds', () => {
  const keepAll = () => true;

  it('stops before the byte budget with `next`; the rest follows from there, each node once', async () => {
    const one = JSON.stringify(Object.values((await list(admin, { limit: '1' })).body.nodes)[0]).length;
    const budget = one * 7 + one / 2; // about 7 nodes
    const seen: string[] = [];
    let after: string | undefined;
    let parts = 0;
    do {
      const answer = await readNodeList('paged', { after }, undefined, keepAll, budget);
      expect(answer.views.length).toBeGreaterThan(0);
      expect(answer.views.length).toBeLessThanOrEqual(8);
      seen.push(...answer.views.map(([id]) => id));
      after = answer.next;
      parts += 1;
    } while (after !== undefined);
    expect(seen).toEqual(ids.map((id) => `paged/${id}`));
    expect(parts).toBeGreaterThanOrEqual(4);
  });

  it('with a filter, the rest starts after the last node answered', async () => {
    const one = JSON.stringify(Object.values((await list(admin, { limit: '1' })).body.nodes)[0]).length;
    const armOnly = (node: { arch: string }) => node.arch === 'arm64';
    const first = await readNodeList('paged', {}, undefined, armOnly, one * 3 + one / 2);
    expect(first.views.map(([id]) => id)).toEqual(['paged/n00', 'paged/n02', 'paged/n04']);
    expect(first.next).toBe('n04');
  });
});
