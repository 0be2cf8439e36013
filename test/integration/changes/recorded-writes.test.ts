import { beforeAll, describe, expect, it } from 'vitest';
import { handler as patchAgbot } from '#functions/agbots/patch-agbot';
import { handler as putAgbot } from '#functions/agbots/put-agbot';
import { handler as postChanges } from '#functions/changes/post-changes';
import { maxChangeId } from '#tables/feed/changes';
import { createOrg, createUser } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';

useTestTable();

type Auth = { user: string; secret: string };
let admin: Auth;
const ORG = 'feed';

interface Group {
  id: string;
  resource: string;
  operation: string;
  resourceChanges: { changeId: number }[];
}

/**
 * The change-feed test through the real write handlers: 10 clients interleave agbot PUTs
 * and PATCHes (each write records its change in its own transaction), then a reader paging with
 * maxRecords 7 and `mostRecentChangeId + 1`, as anax does, sees every change once, in order.
 */
describe('the change feed over real writes from 10 clients', () => {
  beforeAll(async () => {
    await createOrg(ORG);
    admin = await createUser(ORG, 'admin', { admin: true });
  });

  it('shows every agbot write once, in changeId order, to a reader paging with maxRecords 7', async () => {
    const start = (await maxChangeId()) + 1;
    await Promise.all(
      Array.from({ length: 10 }, async (_, client) => {
        const path = { organization: ORG, agreementbot: `cw${client}` };
        const put = await invoke(putAgbot, {
          auth: admin,
          path,
          body: { token: 'agbot-token-1', name: 'a', publicKey: '' },
        });
        expect([200, 201]).toContain(put.status);
        for (const name of ['b', 'c']) {
          const patch = await invoke(patchAgbot, { auth: admin, path, body: { name } });
          expect([200, 201]).toContain(patch.status);
        }
      }),
    );
    const seen: number[] = [];
    const lastOperation = new Map<string, { changeId: number; operation: string }>();
    for (let cursor = start, pages = 0; pages < 20; pages++) {
      const { status, body } = await invoke(postChanges, {
        auth: admin,
        path: { organization: ORG },
        body: { changeId: cursor, maxRecords: 7 },
      });
      expect(status).toBe(201);
      const groups = body.changes as Group[];
      const page = groups.flatMap((g) => g.resourceChanges.map((r) => r.changeId)).sort((a, b) => a - b);
      if (page.length === 0) break;
      expect(page.length).toBeLessThanOrEqual(7);
      expect(Math.min(...page)).toBeGreaterThan(Math.max(0, ...seen));
      expect(body.mostRecentChangeId).toBe(page.at(-1));
      for (const g of groups) {
        expect(g.resource).toBe('agbot');
        const newest = Math.max(...g.resourceChanges.map((r) => r.changeId));
        if ((lastOperation.get(g.id)?.changeId ?? 0) < newest)
          lastOperation.set(g.id, { changeId: newest, operation: g.operation });
      }
      seen.push(...page);
      cursor = body.mostRecentChangeId + 1;
    }
    expect(seen).toEqual(Array.from({ length: 30 }, (_, i) => start + i));
    expect([...lastOperation.keys()].sort()).toEqual(Array.from({ length: 10 }, (_, i) => `cw${i}`).sort());
    for (const { operation } of lastOperation.values()) expect(operation).toBe('modified');
  });

  it('adds no row for a rejected agbot write (bad body, missing agbot, not allowed)', async () => {
    const before = await maxChangeId();
    const user = await createUser(ORG, 'plain');
    const path = { organization: ORG, agreementbot: 'cw0' };
    expect((await invoke(patchAgbot, { auth: admin, path, body: { name: 5 } })).status).toBe(400);
    expect(
      (
        await invoke(patchAgbot, {
          auth: admin,
          path: { organization: ORG, agreementbot: 'ghost' },
          body: { name: 'x' },
        })
      ).status,
    ).toBe(404);
    expect((await invoke(patchAgbot, { auth: user, path, body: { name: 'x' } })).status).toBe(403);
    expect(await maxChangeId()).toBe(before);
  });
});
