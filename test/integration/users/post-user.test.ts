import { beforeAll, describe, expect, it } from 'vitest';
import { handler as confirmUser } from '#functions/users/confirm-user';
import { handler as getUser } from '#functions/users/get-user';
import { handler as postUser } from '#functions/users/post-user';
import { getOrgCounts } from '#tables/org/stats';
import { getUser as readUser } from '#tables/user/records';
import { createAgbot, createNode, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';

useTestTable();

type Auth = { user: string; secret: string };
let hub: Auth;
let admin: Auth;
let user: Auth;
let otherAdmin: Auth;
let node: Auth;
let agbot: Auth;

beforeAll(async () => {
  await createOrg('acme');
  await createOrg('other');
  hub = await createUser('root', 'hub', { hubAdmin: true });
  admin = await createUser('acme', 'boss', { admin: true });
  user = await createUser('acme', 'alice');
  otherAdmin = await createUser('other', 'chief', { admin: true });
  node = await createNode('acme', 'n1', 'acme/alice');
  agbot = await createAgbot('acme', 'a1', 'acme/alice');
});

const body = { password: 'pw-1', admin: false, email: 'u@example.com' };
const post = (auth: Auth, organization: string, username: string, payload: unknown = body) =>
  invoke(postUser, { auth, path: { organization, username }, body: payload });

describe('POST /v1/orgs/{organization}/users/{username}', () => {
  it('lets an org admin create a user who can then log in; counters follow', async () => {
    const before = await getOrgCounts('acme');
    const created = await post(admin, 'acme', 'u1');
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ code: 'ok', msg: 'acme/u1 user added successfully' });
    expect((await getOrgCounts('acme')).users).toBe(before.users + 1);
    const read = await invoke(getUser, { auth: admin, path: { organization: 'acme', username: 'u1' } });
    expect(read.body).toEqual({
      users: {
        'acme/u1': {
          admin: false,
          apikeys: [],
          email: 'u@example.com',
          hubAdmin: false,
          lastUpdated: expect.any(String),
          password: '***************',
          updatedBy: 'acme/boss',
        },
      },
      lastIndex: 0,
    });
    const stored = await readUser('acme', 'u1');
    expect(stored?.passwordHash).toMatch(/^\$scrypt\$/);
    const login = await invoke(confirmUser, {
      auth: { user: 'acme/u1', secret: 'pw-1' },
      path: { organization: 'acme', username: 'u1' },
    });
    expect(login.status).toBe(201);
  });

  it('answers 400 for a duplicate and 404 for a missing org, writing nothing', async () => {
    const duplicate = await post(admin, 'acme', 'u1');
    expect(duplicate.status).toBe(400);
    expect(duplicate.body).toEqual({ code: 'invalid-input', msg: 'user not added or updated: acme/u1' });
    const noOrg = await post(ROOT, 'ghost', 'u1');
    expect(noOrg.status).toBe(404);
    expect(noOrg.body).toEqual({ code: 'not-found', msg: "org 'ghost' not found" });
    expect(await readUser('ghost', 'u1')).toBeUndefined();
    expect((await getOrgCounts('ghost')).users).toBe(0);
  });

  it('refuses users, nodes, agbots and admins of other orgs', async () => {
    for (const auth of [user, node, agbot, otherAdmin]) {
      const denied = await post(auth, 'acme', 'u2');
      expect(denied.status).toBe(403);
      expect(denied.body.code).toBe('access-denied');
    }
    expect(await readUser('acme', 'u2')).toBeUndefined();
  });

  it('lets hub admins create admins anywhere and hub admins in root, but not plain users', async () => {
    expect((await post(hub, 'acme', 'admin2', { ...body, admin: true })).status).toBe(201);
    expect((await post(hub, 'root', 'hub2', { ...body, hubAdmin: true })).status).toBe(201);
    expect((await readUser('root', 'hub2'))?.hubAdmin).toBe(true);
    const plain = await post(hub, 'acme', 'plain');
    expect(plain.body.msg).toBe('Hub Admin users can only create or update hub admin or org admin users');
  });

  it("applies upstream's rules in order, each a 400 with its message", async () => {
    const cases: [Auth, string, string, unknown, string][] = [
      [
        ROOT,
        'acme',
        'x',
        { admin: false, email: 'e' },
        'the password must be non-blank when creating a user',
      ],
      [
        ROOT,
        'acme',
        'x',
        { password: 'p', admin: false },
        'the password must be non-blank when creating a user',
      ],
      [
        ROOT,
        'acme',
        'ApiKey',
        body,
        "The usernames 'apikey' and 'iamapikey' are reserved and cannot be used",
      ],
      [
        ROOT,
        'acme',
        'iamapikey',
        body,
        "The usernames 'apikey' and 'iamapikey' are reserved and cannot be used",
      ],
      [ROOT, 'acme', 'x', { ...body, password: '  ' }, 'the password must be non-blank when creating a user'],
      [ROOT, 'root', 'root', body, 'a user without admin privilege can not give admin privilege'],
      [
        ROOT,
        'root',
        'x',
        { ...body, admin: true, hubAdmin: true },
        'a user without admin privilege can not give admin privilege',
      ],
      [ROOT, 'root', 'x', body, 'Only the root user and hub admins can exist in the root org'],
      [
        admin,
        'acme',
        'x',
        { ...body, hubAdmin: true },
        'This user does not have permissions to make Hub Admins',
      ],
      [ROOT, 'acme', 'x', { ...body, hubAdmin: true }, 'Hub Admin users must be created in the root org'],
    ];
    for (const [auth, org, username, payload, msg] of cases) {
      const result = await post(auth, org, username, payload);
      expect(result.status, msg).toBe(400);
      expect(result.body).toEqual({ code: 'invalid-input', msg });
    }
    expect(await readUser('acme', 'x')).toBeUndefined();
    expect(await readUser('root', 'x')).toBeUndefined();
  });

  it('rejects unknown fields and wrong types naming the field; authorization comes first', async () => {
    const unknown = await post(ROOT, 'acme', 'x', { ...body, role: 'god' });
    expect(unknown.body).toEqual({ code: 'invalid-input', msg: "invalid input: unknown body field 'role'" });
    const wrongType = await post(ROOT, 'acme', 'x', { ...body, admin: 'yes' });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.msg).toContain("'admin'");
    expect((await post(user, 'acme', 'x', { nonsense: true })).status).toBe(403);
    expect((await post({ ...admin, secret: 'wrong' }, 'acme', 'x')).status).toBe(401);
  });
});
