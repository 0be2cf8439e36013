import { beforeAll, describe, expect, it } from 'vitest';
import { instanceAuthCaches } from '#functions/endpoint';
import { handler as deleteNode } from '#functions/nodes/delete-node';
import { handler as patchNode } from '#functions/nodes/patch-node';
import { handler as putNode } from '#functions/nodes/put-node';
import { handler as deleteUser } from '#functions/users/delete-user';
import { handler as patchUser } from '#functions/users/patch-user';
import { handler as postUser } from '#functions/users/post-user';
import { type AuthCaches, authenticate } from '#lib/auth/authenticate';
import { basicAuthHeader } from '#lib/auth/basic';
import { PrincipalCache } from '#lib/auth/principal-cache';
import { VerificationCache } from '#lib/auth/secrets';
import { dynamoCallCount } from '#tables/client';
import { loadPrincipal } from '#tables/identity/principals';
import { createNode, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';

useTestTable();

type Auth = { user: string; secret: string };
const TTL_MS = 60_000;

/** Another function instance against the same table, with a clock the test moves. */
function otherInstance() {
  const clock = { now: 1_000_000 };
  const caches: AuthCaches = {
    principals: new PrincipalCache(
      loadPrincipal,
      () => TTL_MS,
      () => clock.now,
    ),
    verified: new VerificationCache(() => TTL_MS),
  };
  return { clock, caches };
}

/** The status authentication answers: 200 for a caller, else the error's (401). */
async function statusOf(auth: Auth, caches: AuthCaches = instanceAuthCaches): Promise<number> {
  try {
    await authenticate(basicAuthHeader(auth.user, auth.secret), caches);
    return 200;
  } catch (error) {
    return (error as { status: number }).status;
  }
}

let alice: Auth;

beforeAll(async () => {
  await createOrg('acme');
  alice = await createUser('acme', 'alice');
});

describe('remembered identities (authCacheSeconds)', () => {
  it('a password change takes effect at once here and within authCacheSeconds on another instance', async () => {
    const carol = await createUser('acme', 'carol', { password: 'old-pw' });
    const other = otherInstance();
    expect(await statusOf(carol)).toBe(200);
    expect(await statusOf(carol, other.caches)).toBe(200);
    const path = { organization: 'acme', username: 'carol' };
    expect((await invoke(patchUser, { auth: carol, path, body: { password: 'new-pw' } })).status).toBe(201);
    const renewed = { ...carol, secret: 'new-pw' };
    expect(await statusOf(carol)).toBe(401);
    expect(await statusOf(renewed)).toBe(200);
    // The other instance still knows the old hash, for at most authCacheSeconds.
    other.clock.now += TTL_MS - 1;
    expect(await statusOf(carol, other.caches)).toBe(200);
    other.clock.now += 1;
    expect(await statusOf(carol, other.caches)).toBe(401);
    expect(await statusOf(renewed, other.caches)).toBe(200);
  });

  it('an admin flag change is seen at once by this instance', async () => {
    const boss = await createUser('acme', 'boss', { admin: true });
    expect(await authenticate(basicAuthHeader(boss.user, boss.secret), instanceAuthCaches)).toMatchObject({
      admin: true,
    });
    const path = { organization: 'acme', username: 'boss' };
    expect((await invoke(patchUser, { auth: boss, path, body: { admin: false } })).status).toBe(201);
    expect(await authenticate(basicAuthHeader(boss.user, boss.secret), instanceAuthCaches)).toMatchObject({
      admin: false,
    });
  });

  it('a token change takes effect at once here and within authCacheSeconds on another instance', async () => {
    const node = await createNode('acme', 'tok', 'acme/alice');
    const other = otherInstance();
    expect(await statusOf(node)).toBe(200);
    expect(await statusOf(node, other.caches)).toBe(200);
    const path = { organization: 'acme', node: 'tok' };
    expect((await invoke(patchNode, { auth: alice, path, body: { token: 'fresh-token' } })).status).toBe(201);
    const renewed = { ...node, secret: 'fresh-token' };
    expect(await statusOf(node)).toBe(401);
    expect(await statusOf(renewed)).toBe(200);
    other.clock.now += TTL_MS - 1;
    expect(await statusOf(node, other.caches)).toBe(200);
    other.clock.now += 1;
    expect(await statusOf(node, other.caches)).toBe(401);
    expect(await statusOf(renewed, other.caches)).toBe(200);
  });

  it('a node registered here is remembered as verified: its first request is not hashed again', async () => {
    const path = { organization: 'acme', node: 'fresh' };
    const before = instanceAuthCaches.verified.size;
    const put = await invoke(putNode, {
      auth: alice,
      path,
      body: { token: 'fresh-node-token', name: 'fresh', pattern: '', publicKey: '' },
    });
    expect(put.status).toBe(201);
    // The PUT made one entry (the hash it made of the token); the node's first request uses it.
    expect(instanceAuthCaches.verified.size).toBe(before + 1);
    expect(await statusOf({ user: 'acme/fresh', secret: 'fresh-node-token' })).toBe(200);
    expect(instanceAuthCaches.verified.size).toBe(before + 1);
    expect(await statusOf({ user: 'acme/fresh', secret: 'another-token' })).toBe(401);
  });

  it('a deleted node or user (and the nodes it owned) stop authenticating at once here, elsewhere within the bound', async () => {
    const node = await createNode('acme', 'gone', 'acme/alice');
    const dave = await createUser('acme', 'dave');
    const davesNode = await createNode('acme', 'daves', 'acme/dave');
    const other = otherInstance();
    for (const auth of [node, dave, davesNode]) {
      expect(await statusOf(auth)).toBe(200);
      expect(await statusOf(auth, other.caches)).toBe(200);
    }
    const nodePath = { organization: 'acme', node: 'gone' };
    expect((await invoke(deleteNode, { auth: alice, path: nodePath })).status).toBe(204);
    const userPath = { organization: 'acme', username: 'dave' };
    expect((await invoke(deleteUser, { auth: dave, path: userPath })).status).toBe(204);
    for (const auth of [node, dave, davesNode]) expect(await statusOf(auth)).toBe(401);
    other.clock.now += TTL_MS;
    for (const auth of [node, dave, davesNode]) expect(await statusOf(auth, other.caches)).toBe(401);
  });

  it('a user deleted and re-created with a new password is accepted at once on another instance', async () => {
    const u4 = await createUser('acme', 'u4', { password: 'first-pw' });
    const other = otherInstance();
    expect(await statusOf(u4, other.caches)).toBe(200);
    const path = { organization: 'acme', username: 'u4' };
    expect((await invoke(deleteUser, { auth: ROOT, path })).status).toBe(204);
    const body = { password: 'second-pw', email: 'u4@example.com', admin: false };
    expect((await invoke(postUser, { auth: ROOT, path, body })).status).toBe(201);
    // The other instance still remembers the old record: the new password fails against it, so
    // the record is read once more and the new password is accepted on the first try.
    const renewed = { ...u4, secret: 'second-pw' };
    const before = dynamoCallCount();
    expect(await statusOf(renewed, other.caches)).toBe(200);
    expect(dynamoCallCount() - before).toBe(1);
    // What it read is remembered: the next request makes no call, and the old password is refused.
    const after = dynamoCallCount();
    expect(await statusOf(renewed, other.caches)).toBe(200);
    expect(dynamoCallCount() - after).toBe(0);
    expect(await statusOf(u4, other.caches)).toBe(401);
    // A wrong password against the remembered record is still 401, for at most one read each.
    for (let i = 0; i < 3; i++) {
      const calls = dynamoCallCount();
      expect(await statusOf({ ...u4, secret: `wrong-${i}` }, other.caches)).toBe(401);
      expect(dynamoCallCount() - calls).toBeLessThanOrEqual(1);
    }
    expect(await statusOf(renewed, other.caches)).toBe(200);
  });

  it('a new node token set on another instance is accepted at once; the old one only within the bound', async () => {
    const node = await createNode('acme', 'retok', 'acme/alice');
    const other = otherInstance();
    expect(await statusOf(node, other.caches)).toBe(200);
    const path = { organization: 'acme', node: 'retok' };
    expect((await invoke(patchNode, { auth: alice, path, body: { token: 'next-token' } })).status).toBe(201);
    // Until its entry expires the other instance still accepts the old token (authCacheSeconds)...
    expect(await statusOf(node, other.caches)).toBe(200);
    // ...and the new one at once.
    expect(await statusOf({ ...node, secret: 'next-token' }, other.caches)).toBe(200);
  });

  it('never remembers a wrong password as valid, and a failed attempt locks nobody out', async () => {
    const erin = await createUser('acme', 'erin', { password: 'right-pw' });
    const other = otherInstance();
    const wrong = { ...erin, secret: 'wrong-pw' };
    for (let i = 0; i < 3; i++) expect(await statusOf(wrong, other.caches)).toBe(401);
    expect(other.caches.verified.size).toBe(0);
    // The right secret works at once after the failures, from the remembered identity (no call).
    const before = dynamoCallCount();
    expect(await statusOf(erin, other.caches)).toBe(200);
    expect(dynamoCallCount() - before).toBe(0);
    expect(await statusOf(wrong, other.caches)).toBe(401);
    expect(await statusOf(erin, other.caches)).toBe(200);
  });

  it('does not remember an unknown id: an identity created elsewhere works at once', async () => {
    const other = otherInstance();
    expect(await statusOf({ user: 'acme/frank', secret: 'frank-pw' }, other.caches)).toBe(401);
    const frank = await createUser('acme', 'frank');
    expect(await statusOf(frank, other.caches)).toBe(200);
  });

  it('reads any identity whose entry expired again with one call (one GetItem of its principal item)', async () => {
    const node = await createNode('acme', 'again', 'acme/alice');
    const other = otherInstance();
    const callsOf = async (auth: Auth) => {
      const before = dynamoCallCount();
      expect(await statusOf(auth, other.caches)).toBe(200);
      return dynamoCallCount() - before;
    };
    expect(await callsOf(node)).toBe(1);
    expect(await callsOf(alice)).toBe(1);
    expect(await callsOf(node)).toBe(0);
    other.clock.now += TTL_MS;
    expect(await callsOf(node)).toBe(1);
    expect(await callsOf(alice)).toBe(1);
  });

  it('reads a node again with one GetItem after a write here forgot it', async () => {
    const node = await createNode('acme', 'written', 'acme/alice');
    expect(await statusOf(node)).toBe(200);
    const path = { organization: 'acme', node: 'written' };
    expect((await invoke(patchNode, { auth: node, path, body: { arch: 'riscv' } })).status).toBe(201);
    const before = dynamoCallCount();
    expect(await statusOf(node)).toBe(200);
    expect(dynamoCallCount() - before).toBe(1);
  });

  it('authenticates a remembered identity without a DynamoDB call', async () => {
    expect(await statusOf(alice)).toBe(200);
    const before = dynamoCallCount();
    expect(await statusOf(alice)).toBe(200);
    expect(dynamoCallCount() - before).toBe(0);
  });
});
