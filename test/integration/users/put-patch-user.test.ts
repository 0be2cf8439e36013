import { beforeAll, describe, expect, it } from 'vitest';
import { handler as confirmUser } from '#functions/users/confirm-user';
import { handler as getUser } from '#functions/users/get-user';
import { handler as getUsers } from '#functions/users/get-users';
import { handler as patchUser } from '#functions/users/patch-user';
import { handler as putUser } from '#functions/users/put-user';
import { getOrgCounts } from '#tables/org/stats';
import { getUser as readUser } from '#tables/user/records';
import { createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';

useTestTable();

type Auth = { user: string; secret: string };
let hub: Auth;
let hub2: Auth;
let admin: Auth;
let user: Auth;

beforeAll(async () => {
  await createOrg('acme');
  hub = await createUser('root', 'hub', { hubAdmin: true });
  hub2 = await createUser('root', 'hub2', { hubAdmin: true });
  admin = await createUser('acme', 'boss', { admin: true });
  user = await createUser('acme', 'alice');
  await createUser('acme', 'carol');
});

const body = { password: 'new-pw', admin: false, email: 'new@example.com' };
const put = (auth: Auth, organization: string, username: string, payload: unknown = body) =>
  invoke(putUser, { auth, path: { organization, username }, body: payload });
const patch = (auth: Auth, organization: string, username: string, payload: unknown) =>
  invoke(patchUser, { auth, path: { organization, username }, body: payload });
const canLogIn = async (fullId: string, secret: string) => {
  const [organization = '', username = ''] = fullId.split('/');
  return (await invoke(confirmUser, { auth: { user: fullId, secret }, path: { organization, username } }))
    .status;
};

describe('PUT /v1/orgs/{organization}/users/{username}', () => {
  it('lets a user replace itself: the new password works at once, the old one no longer', async () => {
    const result = await put(user, 'acme', 'alice');
    expect(result.status).toBe(201);
    expect(result.body).toEqual({ code: 'ok', msg: 'user updated successfully' });
    expect(await canLogIn('acme/alice', 'new-pw')).toBe(201);
    expect(await canLogIn('acme/alice', user.secret)).toBe(401);
    expect(await readUser('acme', 'alice')).toMatchObject({
      email: 'new@example.com',
      updatedBy: 'acme/alice',
    });
    user = { ...user, secret: 'new-pw' };
  });

  it('creates a missing user, and keeps the adminUsers counter in step with admin flags', async () => {
    const before = await getOrgCounts('acme');
    const created = await put(admin, 'acme', 'dave', { ...body, admin: true });
    expect(created.body).toEqual({ code: 'ok', msg: 'acme/dave user added successfully' });
    expect(await getOrgCounts('acme')).toMatchObject({
      users: before.users + 1,
      adminUsers: before.adminUsers + 1,
    });
    expect((await put(admin, 'acme', 'dave')).body.msg).toBe('user updated successfully');
    expect(await getOrgCounts('acme')).toMatchObject({
      users: before.users + 1,
      adminUsers: before.adminUsers,
    });
  });

  it('lets a hub admin create another hub admin in root (access maps the hub admin to WRITE_MY_USERS)', async () => {
    const result = await put(hub, 'root', 'hub3', { ...body, hubAdmin: true });
    expect(result.status).toBe(201);
    expect((await readUser('root', 'hub3'))?.hubAdmin).toBe(true);
  });

  it('answers 400 when the user exists but is hidden from the caller, as upstream', async () => {
    const hidden = await put(hub, 'acme', 'carol', { ...body, admin: true });
    expect(hidden.body).toEqual({ code: 'invalid-input', msg: 'user not added or updated: acme/carol' });
    expect((await readUser('acme', 'carol'))?.admin).toBe(false);
  });

  it('applies the POST rules plus empty email; 404 for a missing org; 403 for another user', async () => {
    expect((await put(admin, 'acme', 'carol', { ...body, email: '' })).body.msg).toBe('bad input');
    expect((await put(ROOT, 'root', 'root')).body.msg).toBe(
      'a user without admin privilege can not give admin privilege',
    );
    expect((await put(user, 'acme', 'alice', { ...body, admin: true })).body.msg).toBe(
      'a user without admin privilege can not give admin privilege',
    );
    expect((await put(ROOT, 'acme', 'apikey')).body.msg).toContain('reserved');
    const noOrg = await put(ROOT, 'ghost', 'x');
    expect(noOrg.status).toBe(404);
    expect(await readUser('ghost', 'x')).toBeUndefined();
    expect((await put(user, 'acme', 'carol')).status).toBe(403);
  });
});

describe('PATCH /v1/orgs/{organization}/users/{username}', () => {
  it('needs exactly one attribute', async () => {
    for (const payload of [{}, { email: 'a@b', admin: true }, { email: null }]) {
      const result = await patch(admin, 'acme', 'carol', payload);
      expect(result.body).toEqual({ code: 'invalid-input', msg: 'bad input' });
    }
  });

  it('changes one attribute and says which', async () => {
    const email = await patch(admin, 'acme', 'carol', { email: 'c@example.com' });
    expect(email.body).toEqual({ code: 'ok', msg: "attribute 'email' of user 'acme/carol' updated" });
    const before = await getOrgCounts('acme');
    const promoted = await patch(admin, 'acme', 'carol', { admin: true });
    expect(promoted.body.msg).toBe("attribute 'admin' of user 'acme/carol' updated");
    expect(await readUser('acme', 'carol')).toMatchObject({ admin: true, email: 'c@example.com' });
    expect((await getOrgCounts('acme')).adminUsers).toBe(before.adminUsers + 1);
    expect((await patch(user, 'acme', 'alice', { password: 'third-pw' })).status).toBe(201);
    expect(await canLogIn('acme/alice', 'third-pw')).toBe(201);
    user = { ...user, secret: 'third-pw' };
  });

  it('removes the password when it is patched to empty: the user can no longer log in', async () => {
    await createUser('acme', 'erin');
    expect((await patch(admin, 'acme', 'erin', { password: '' })).status).toBe(201);
    const read = await invoke(getUser, { auth: admin, path: { organization: 'acme', username: 'erin' } });
    expect(read.body.users['acme/erin'].password).toBe('');
    expect(await canLogIn('acme/erin', 'erin-pw')).toBe(401);
  });

  it("applies upstream's rules: admin and hub admin grants, root/root, other users", async () => {
    const cases: [Auth, string, string, unknown, string][] = [
      [user, 'acme', 'alice', { admin: true }, 'a user without admin privilege can not give admin privilege'],
      [hub, 'acme', 'boss', { admin: true }, 'a user without admin privilege can not give admin privilege'],
      [admin, 'acme', 'carol', { email: '' }, 'bad input'],
      [admin, 'acme', 'carol', { hubAdmin: true }, 'This user does not have permissions to make Hub Admins'],
      [ROOT, 'acme', 'carol', { hubAdmin: true }, 'Hub Admin users must be created in the root org'],
      [ROOT, 'root', 'root', { admin: false }, 'user not updated: root'],
    ];
    for (const [auth, org, username, payload, msg] of cases) {
      const result = await patch(auth, org, username, payload);
      expect(result.status, msg).toBe(400);
      expect(result.body).toEqual({ code: 'invalid-input', msg });
    }
    expect((await patch(hub, 'root', 'root', { email: 'x@y' })).status).toBe(403);
    expect((await patch(user, 'acme', 'carol', { email: 'x@y' })).status).toBe(403);
    expect((await patch(ROOT, 'root', 'root', { email: 'root@example.com' })).status).toBe(201);
  });

  it('answers 404 for a missing user or one the caller may not touch', async () => {
    const missing = await patch(admin, 'acme', 'ghost', { email: 'g@x' });
    expect(missing.body).toEqual({ code: 'not-found', msg: "user 'acme/ghost' not found" });
    expect(await readUser('acme', 'ghost')).toBeUndefined();
    expect((await patch(hub, 'acme', 'carol', { email: 'seen@x' })).status).toBe(201);
    await createUser('acme', 'frank');
    expect((await patch(hub, 'acme', 'frank', { email: 'hidden@x' })).status).toBe(404);
    expect((await readUser('acme', 'frank'))?.email).toBe('frank@example.com');
  });

  it("lets a hub admin revoke another hub admin ('hubadmin' in the message)", async () => {
    const result = await patch(hub, 'root', 'hub2', { hubAdmin: false });
    expect(result.body).toEqual({ code: 'ok', msg: "attribute 'hubadmin' of user 'root/hub2' updated" });
    expect((await readUser('root', 'hub2'))?.hubAdmin).toBe(false);
    // Now a plain user of root: it may no longer list another org's users.
    expect((await invoke(getUsers, { auth: hub2, path: { organization: 'acme' } })).status).toBe(403);
  });
});
