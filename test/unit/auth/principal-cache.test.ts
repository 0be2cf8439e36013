import { describe, expect, it } from 'vitest';
import { PrincipalCache } from '#tables/identity/cache';
import type { Principal } from '#tables/identity/principals';

/** A cache over an in-memory directory, with a clock the test moves and every load recorded. */
function setup(options: { ttlMs?: number; maxEntries?: number } = {}) {
  const directory = new Map<string, Principal>();
  const loads: { key: string }[] = [];
  const clock = { now: 0 };
  let pending: (() => void) | undefined;
  const cache = new PrincipalCache(
    async (org, id) => {
      const key = `${org}/${id}`;
      loads.push({ key });
      const found = directory.get(key);
      if (pending) await new Promise<void>((resolve) => (pending = resolve));
      return found;
    },
    () => options.ttlMs ?? 1000,
    () => clock.now,
    options.maxEntries,
  );
  const user = (secretHash: string): Principal => ({
    kind: 'user',
    secretHash,
    admin: false,
    hubAdmin: false,
  });
  return {
    cache,
    directory,
    loads,
    clock,
    user,
    holdLoads: () => {
      pending = () => {};
    },
    releaseLoad: () => {
      const release = pending;
      pending = undefined;
      release?.();
    },
  };
}

describe('PrincipalCache', () => {
  it('serves a loaded identity until ttl, then loads it again', async () => {
    const t = setup();
    t.directory.set('o/a', t.user('h1'));
    expect(await t.cache.get('o', 'a')).toEqual(t.user('h1'));
    t.directory.set('o/a', t.user('h2'));
    t.clock.now = 999;
    expect(await t.cache.get('o', 'a')).toEqual(t.user('h1'));
    t.clock.now = 1000;
    expect(await t.cache.get('o', 'a')).toEqual(t.user('h2'));
    expect(t.loads).toEqual([{ key: 'o/a' }, { key: 'o/a' }]);
  });

  it('forgets one id, an org, or everything at once', async () => {
    const t = setup();
    for (const key of ['o/a', 'o/b', 'p/a']) t.directory.set(key, t.user(key));
    for (const [org, id] of [
      ['o', 'a'],
      ['o', 'b'],
      ['p', 'a'],
    ] as const)
      await t.cache.get(org, id);
    t.cache.forget('o', 'a');
    expect(t.cache.size).toBe(2);
    expect(await t.cache.get('o', 'a')).toEqual(t.user('o/a'));
    expect(t.loads.at(-1)).toEqual({ key: 'o/a' });
    t.cache.forget('o', 'a');
    t.cache.forgetOrg('o');
    expect(t.cache.size).toBe(1);
    t.cache.forgetAll();
    expect(t.cache.size).toBe(0);
  });

  it('never remembers an unknown id', async () => {
    const t = setup();
    expect(await t.cache.get('o', 'new')).toBeUndefined();
    t.directory.set('o/new', t.user('h'));
    expect(await t.cache.get('o', 'new')).toEqual(t.user('h'));
  });

  it('does not store what a load read before a write forgot the id', async () => {
    const t = setup();
    t.directory.set('o/a', t.user('old'));
    t.holdLoads();
    const reading = t.cache.get('o', 'a');
    await Promise.resolve();
    t.directory.set('o/a', t.user('new'));
    t.cache.forget('o', 'a');
    t.releaseLoad();
    expect(await reading).toEqual(t.user('old'));
    expect(t.cache.size).toBe(0);
    expect(await t.cache.get('o', 'a')).toEqual(t.user('new'));
  });

  it('stays within maxEntries, pushing out the least recently used', async () => {
    const t = setup({ maxEntries: 2 });
    for (const id of ['a', 'b', 'c']) t.directory.set(`o/${id}`, t.user(id));
    await t.cache.get('o', 'a');
    await t.cache.get('o', 'b');
    await t.cache.get('o', 'a'); // a is now the most recent
    await t.cache.get('o', 'c'); // pushes out b
    expect(t.cache.size).toBe(2);
    const before = t.loads.length;
    await t.cache.get('o', 'a');
    expect(t.loads.length).toBe(before);
    await t.cache.get('o', 'b');
    expect(t.loads.length).toBe(before + 1);
  });

  it('remembers nothing when authCacheSeconds is 0', async () => {
    const t = setup({ ttlMs: 0 });
    t.directory.set('o/a', t.user('h'));
    await t.cache.get('o', 'a');
    await t.cache.get('o', 'a');
    expect(t.loads.length).toBe(2);
    expect(t.cache.size).toBe(0);
  });
});
