import { beforeAll, describe, expect, it } from 'vitest';
import { handler as confirmUser } from '#functions/users/confirm-user';
import { handler as getUser } from '#functions/users/get-user';
import { handler as getUsers } from '#functions/users/get-users';
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
  await createOrg('empty');
  hub = await createUser('root', 'hub', { hubAdmin: true });
  admin = await createUser('acme', 'boss', { admin: true });
  user = await createUser('acme', 'alice');
  await createUser('acme', 'bob');
  otherAdmin = await createUser('other', 'chief', { admin: true });
  await createUser('empty', 'plain');
  node = await createNode('acme', 'n1', 'acme/alice');
  agbot = await createAgbot('acme', 'a1', 'acme/alice');
});

const list = (auth: Auth, organization: string) => invoke(getUsers, { auth, path: { organization } });
const one = (auth: Auth, organization: string, username: string) =>
  invoke(getUser, { auth, path: { organization, username } });
const confirm = (auth: Auth, organization: string, username: string) =>
  invoke(confirmUser, { auth, path: { organization, username } });
const names = (body: { users: Record<string, unknown> }) => Object.keys(body.users);

describe('GET /v1/orgs/{organization}/users', () => {
  it('lists an org for its admins and root, and only admins for hub admins', async () => {
    expect(names((await list(admin, 'acme')).body)).toEqual(['acme/alice', 'acme/bob', 'acme/boss']);
    expect(names((await list(ROOT, 'acme')).body)).toEqual(['acme/alice', 'acme/bob', 'acme/boss']);
    expect(names((await list(hub, 'acme')).body)).toEqual(['acme/boss']);
    expect(names((await list(ROOT, 'root')).body)).toEqual(['root/hub', 'root/root']);
    expect(names((await list(hub, 'root')).body)).toEqual(['root/hub']);
    const users = (await list(admin, 'acme')).body.users;
    expect(users['acme/alice']).toEqual({
      admin: false,
      apikeys: [],
      email: 'alice@example.com',
      hubAdmin: false,
      lastUpdated: expect.any(String),
      password: '***************',
      updatedBy: '',
    });
  });

  it('answers 404 with the empty map when the caller sees nobody', async () => {
    const result = await list(hub, 'empty');
    expect(result.status).toBe(404);
    expect(result.body).toEqual({ users: {}, lastIndex: 0 });
  });

  it('refuses plain users, nodes, agbots and admins of other orgs', async () => {
    for (const auth of [user, node, agbot, otherAdmin]) expect((await list(auth, 'acme')).status).toBe(403);
  });
});

describe('GET /v1/orgs/{organization}/users/{username}', () => {
  it('lets a user read itself and an org admin read its users', async () => {
    expect(names((await one(user, 'acme', 'alice')).body)).toEqual(['acme/alice']);
    expect(names((await one(admin, 'acme', 'bob')).body)).toEqual(['acme/bob']);
    const rootUser = await one(ROOT, 'root', 'root');
    expect(rootUser.body.users['root/root']).toMatchObject({
      admin: true,
      hubAdmin: true,
      password: '***************',
    });
  });

  it('hides plain users and root/root from hub admins (404), and refuses a user reading another (403)', async () => {
    for (const [org, username] of [
      ['acme', 'alice'],
      ['root', 'root'],
    ] as const) {
      const hidden = await one(hub, org, username);
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual({ users: {}, lastIndex: 0 });
    }
    expect(names((await one(hub, 'acme', 'boss')).body)).toEqual(['acme/boss']);
    const denied = await one(user, 'acme', 'bob');
    expect(denied.status).toBe(403);
    expect(denied.body.msg).toContain('READ_ALL_USERS');
  });

  it('answers other orgs 404 for a missing user and 403 for an existing one', async () => {
    const missing = await one(otherAdmin, 'acme', 'ghost');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 'not-found', msg: "resource 'acme/ghost' not found" });
    expect((await one(otherAdmin, 'acme', 'alice')).status).toBe(403);
    const sameOrgMissing = await one(admin, 'acme', 'ghost');
    expect(sameOrgMissing.status).toBe(404);
    expect(sameOrgMissing.body).toEqual({ users: {}, lastIndex: 0 });
  });
});

describe('POST /v1/orgs/{organization}/users/{username}/confirm', () => {
  it('confirms credentials that may read the user', async () => {
    const result = await confirm(user, 'acme', 'alice');
    expect(result.status).toBe(201);
    expect(result.body).toEqual({ code: 'ok', msg: 'confirmation successful' });
    expect((await confirm(admin, 'acme', 'alice')).status).toBe(201);
    expect((await confirm(ROOT, 'acme', 'alice')).status).toBe(201);
  });

  it('answers 403, 404 and 401 as upstream', async () => {
    expect((await confirm(user, 'acme', 'bob')).status).toBe(403);
    expect((await confirm(otherAdmin, 'acme', 'ghost')).status).toBe(404);
    expect((await confirm({ ...user, secret: 'wrong' }, 'acme', 'alice')).status).toBe(401);
    const unknown = await confirm({ user: 'acme/nobody', secret: 'x' }, 'acme', 'alice');
    expect(unknown.body).toEqual({ code: 'invalid-credentials', msg: 'unauthorized' });
  });
});
