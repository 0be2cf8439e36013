import { beforeAll, describe, expect, it } from 'vitest';
import { handler as putAgbot } from '#functions/agbots/put-agbot';
import { instanceAuthCaches } from '#functions/endpoint';
import { handler as putNode } from '#functions/nodes/put-node';
import { handler as postUser } from '#functions/users/post-user';
import { handler as putUser } from '#functions/users/put-user';
import { authenticate } from '#lib/auth/authenticate';
import { basicAuthHeader } from '#lib/auth/basic';
import { getAgbot } from '#tables/agbot/records';
import { getNode } from '#tables/node/records';
import { getOrgCounts, getUserCounts } from '#tables/org/stats';
import { getUser } from '#tables/user/records';
import { createAgbot, createNode, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';
import { type Auth, expectPrincipalMatches } from './support.ts';

useTestTable();

/**
 * Authentication resolves node > agbot > user for one `org/id`, so a second kind there would lock
 * the first out (issue 23 item 6): every create of another kind answers 409 and writes nothing.
 */
const nodeBody = { token: 'node-t', name: 'n', pattern: '', publicKey: '', arch: 'amd64' };
const agbotBody = { token: 'agbot-t', name: 'a', publicKey: 'k' };
const userBody = { password: 'user-pw', email: 'x@example.com', admin: false };

const createAs = {
  node: (auth: Auth, id: string) =>
    invoke(putNode, { auth, path: { organization: 'acme', node: id }, body: nodeBody }),
  agbot: (auth: Auth, id: string) =>
    invoke(putAgbot, { auth, path: { organization: 'acme', agreementbot: id }, body: agbotBody }),
  userByPost: (auth: Auth, id: string) =>
    invoke(postUser, { auth, path: { organization: 'acme', username: id }, body: userBody }),
  userByPut: (auth: Auth, id: string) =>
    invoke(putUser, { auth, path: { organization: 'acme', username: id }, body: userBody }),
};

/** The kind `org/id:secret` authenticates as, or the 401's status. */
async function kindOf(user: string, secret: string): Promise<string | number> {
  try {
    return (await authenticate(basicAuthHeader(user, secret), instanceAuthCaches)).kind;
  } catch (error) {
    return (error as { status: number }).status;
  }
}

let admin: Auth;
let alice: Auth;

beforeAll(async () => {
  await createOrg('acme');
  admin = await createUser('acme', 'admin', { admin: true });
  alice = await createUser('acme', 'alice');
});

describe('a create that would shadow another kind of identity answers 409', () => {
  it('a plain user cannot create a node named after the org admin; the admin still authenticates', async () => {
    expect(await kindOf('acme/admin', admin.secret)).toBe('user');
    const before = await getUserCounts('acme', 'alice');
    const result = await createAs.node(alice, 'admin');
    expect(result.status, result.text).toBe(409);
    expect(result.body).toEqual({
      code: 'already-exists',
      msg: "node 'acme/admin' not created: 'acme/admin' is already a user",
    });
    expect(await getNode('acme', 'admin')).toBeUndefined();
    expect(await getUserCounts('acme', 'alice')).toEqual(before);
    await expectPrincipalMatches('acme', 'admin');
    expect(await kindOf('acme/admin', admin.secret)).toBe('user');
    expect(await kindOf('acme/admin', 'node-t')).toBe(401);
  });

  it('an agbot over a user, a node over an agbot, a user over a node, and the other three pairs', async () => {
    await createUser('acme', 'u1', { password: 'u1-pw' });
    await createAgbot('acme', 'b1', 'acme/admin', { token: 'b1-t' });
    await createNode('acme', 'n1', 'acme/admin', { token: 'n1-t' });
    const counts = await getOrgCounts('acme');
    const cases = [
      [() => createAs.agbot(alice, 'u1'), "agbot 'acme/u1' not created: 'acme/u1' is already a user"],
      [() => createAs.node(admin, 'b1'), "node 'acme/b1' not created: 'acme/b1' is already an agbot"],
      [() => createAs.userByPost(ROOT, 'n1'), "user 'acme/n1' not created: 'acme/n1' is already a node"],
      [() => createAs.userByPut(admin, 'n1'), "user 'acme/n1' not created: 'acme/n1' is already a node"],
      [() => createAs.userByPost(admin, 'b1'), "user 'acme/b1' not created: 'acme/b1' is already an agbot"],
      [() => createAs.agbot(admin, 'n1'), "agbot 'acme/n1' not created: 'acme/n1' is already a node"],
      [() => createAs.node(admin, 'u1'), "node 'acme/u1' not created: 'acme/u1' is already a user"],
    ] as const;
    for (const [create, msg] of cases) {
      const result = await create();
      expect(result.status, result.text).toBe(409);
      expect(result.body).toEqual({ code: 'already-exists', msg });
    }
    expect(await getOrgCounts('acme')).toEqual(counts);
    expect(await getAgbot('acme', 'u1')).toBeUndefined();
    expect(await getNode('acme', 'b1')).toBeUndefined();
    expect(await getUser('acme', 'n1')).toBeUndefined();
    for (const id of ['u1', 'b1', 'n1']) await expectPrincipalMatches('acme', id);
    expect(await kindOf('acme/u1', 'u1-pw')).toBe('user');
    expect(await kindOf('acme/b1', 'b1-t')).toBe('agbot');
    expect(await kindOf('acme/n1', 'n1-t')).toBe('node');
  });

  it('two creates of different kinds at once: exactly one wins, the other gets 409', async () => {
    for (let round = 0; round < 5; round++) {
      const id = `race${round}`;
      const [node, user] = await Promise.all([createAs.node(admin, id), createAs.userByPost(ROOT, id)]);
      expect([node.status, user.status].sort(), `${node.text} ${user.text}`).toEqual([201, 409]);
      await expectPrincipalMatches('acme', id);
    }
  });

  it('creates and updates of the same kind still work', async () => {
    expect((await createAs.node(admin, 'fresh-node')).status).toBe(201);
    expect((await createAs.node(admin, 'fresh-node')).status).toBe(201);
    expect((await createAs.agbot(admin, 'fresh-agbot')).status).toBe(200);
    expect((await createAs.agbot(admin, 'fresh-agbot')).status).toBe(200);
    expect((await createAs.userByPost(ROOT, 'fresh-user')).status).toBe(201);
    expect((await createAs.userByPut(ROOT, 'fresh-user')).status).toBe(201);
    expect(await kindOf('acme/fresh-node', 'node-t')).toBe('node');
    expect(await kindOf('acme/fresh-agbot', 'agbot-t')).toBe('agbot');
    expect(await kindOf('acme/fresh-user', 'user-pw')).toBe('user');
    for (const id of ['fresh-node', 'fresh-agbot', 'fresh-user']) await expectPrincipalMatches('acme', id);
  });
});
