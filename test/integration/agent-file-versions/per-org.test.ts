import { beforeAll, describe, expect, it } from 'vitest';
import { handler as deleteVersions } from '#functions/agent-file-versions/delete-agent-file-versions';
import { handler as getVersions } from '#functions/agent-file-versions/get-agent-file-versions';
import { handler as putVersions } from '#functions/agent-file-versions/put-agent-file-versions';
import { handler as deleteOrg } from '#functions/orgs/delete-org';
import { getAgentFileVersions } from '#tables/org/agent-file-versions';
import { createAgbot, createNode, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';

useTestTable();

type Auth = { user: string; secret: string };
const who: Record<string, Auth> = {};
const as = (name: string): Auth => {
  const auth = who[name];
  if (!auth) throw new Error(`no identity ${name}`);
  return auth;
};
const lists = (tag: string) => ({
  agentSoftwareVersions: [`${tag}-sw`],
  agentConfigVersions: [`${tag}-cfg`],
  agentCertVersions: [`${tag}-cert`],
});
const at = (organization: string) => ({ organization });
const get = (auth: Auth, org: string) => invoke(getVersions, { auth, path: at(org) });
const put = (auth: Auth, org: string, tag = org) =>
  invoke(putVersions, { auth, path: at(org), body: lists(tag) });
const del = (auth: Auth, org: string) => invoke(deleteVersions, { auth, path: at(org) });

beforeAll(async () => {
  for (const org of ['acme', 'beta', 'gone']) await createOrg(org);
  who.hub = await createUser('root', 'hub', { hubAdmin: true });
  who.mt = await createAgbot('IBM', 'mt', 'root/root');
  who.ibmUser = await createUser('IBM', 'ibmuser');
  for (const org of ['acme', 'beta']) {
    who[`${org} admin`] = await createUser(org, 'admin', { admin: true });
    who[`${org} user`] = await createUser(org, 'user');
    who[`${org} node`] = await createNode(org, 'n1', `${org}/user`);
    who[`${org} agbot`] = await createAgbot(org, 'a1', `${org}/admin`);
  }
});

describe('agent file versions are kept per org', () => {
  it("keeps each org's lists apart: org A's versions are not org B's, nor IBM's", async () => {
    expect((await put(as('acme agbot'), 'acme')).status).toBe(201);
    expect((await put(as('beta agbot'), 'beta')).status).toBe(201);
    const acme = await get(as('acme node'), 'acme');
    expect(acme.status).toBe(200);
    expect(acme.body).toMatchObject(lists('acme'));
    expect((await get(as('beta node'), 'beta')).body).toMatchObject(lists('beta'));
    const ibm = await get(ROOT, 'IBM');
    expect(ibm.status).toBe(404);
    expect(ibm.body).toEqual({ code: 'not-found', msg: "org 'IBM' not found" });

    expect((await del(as('acme admin'), 'acme')).status).toBe(204);
    expect((await get(as('acme user'), 'acme')).body).toMatchObject({
      agentSoftwareVersions: [],
      agentConfigVersions: [],
      agentCertVersions: [],
    });
    expect((await get(as('beta user'), 'beta')).body).toMatchObject(lists('beta'));
    expect((await del(ROOT, 'gone')).status).toBe(404);
  });

  it('answers 404 for an org that does not exist, storing nothing', async () => {
    const result = await put(ROOT, 'nowhere');
    expect(result.status).toBe(404);
    expect(result.body).toEqual({ code: 'not-found', msg: "org 'nowhere' not found" });
    expect(await getAgentFileVersions('nowhere')).toBeUndefined();
    expect((await get(ROOT, 'nowhere')).status).toBe(404);
  });

  it('goes with its org when the org is deleted', async () => {
    expect((await put(as('hub'), 'gone')).status).toBe(201);
    expect((await invoke(deleteOrg, { auth: ROOT, path: at('gone') })).status).toBe(204);
    expect(await getAgentFileVersions('gone')).toBeUndefined();
  });
});

describe('who may read and write an org’s agent file versions', () => {
  // Callers as seen from org acme: its own identities, then other orgs' (beta, IBM), hub admins, root.
  const readers = ['acme admin', 'acme user', 'acme node', 'acme agbot', 'mt', 'hub'];
  const notReaders = ['beta admin', 'beta user', 'beta node', 'beta agbot', 'ibmUser'];
  const writers = ['acme admin', 'acme agbot', 'mt', 'hub'];
  const notWriters = [
    'acme user',
    'acme node',
    'beta admin',
    'beta user',
    'beta node',
    'beta agbot',
    'ibmUser',
  ];

  it('reads: any identity of the org, multi-tenant agbots, hub admins and root; other orgs 403', async () => {
    expect((await put(ROOT, 'acme', 'r')).status).toBe(201);
    expect((await get(ROOT, 'acme')).status).toBe(200);
    for (const name of readers) {
      const result = await get(as(name), 'acme');
      expect([name, result.status, result.body]).toEqual([name, 200, expect.objectContaining(lists('r'))]);
    }
    for (const name of notReaders) {
      const result = await get(as(name), 'acme');
      expect([name, result.status, result.body.code]).toEqual([name, 403, 'access-denied']);
    }
  });

  it("writes: the org's agbots and admins, multi-tenant agbots, hub admins and root; not users, nodes, other orgs", async () => {
    for (const name of writers) {
      expect([name, (await put(as(name), 'acme', name)).status]).toEqual([name, 201]);
      expect((await getAgentFileVersions('acme'))?.agentSoftwareVersions).toEqual([`${name}-sw`]);
      expect([name, (await del(as(name), 'acme')).status]).toEqual([name, 204]);
    }
    expect((await put(ROOT, 'acme', 'root')).status).toBe(201);
    for (const name of notWriters) {
      const written = await put(as(name), 'acme', name);
      expect([name, written.status, written.body.code]).toEqual([name, 403, 'access-denied']);
      expect([name, (await del(as(name), 'acme')).status]).toEqual([name, 403]);
    }
    // Nothing a refused caller sent was stored.
    expect((await getAgentFileVersions('acme'))?.agentSoftwareVersions).toEqual(['root-sw']);
  });
});
