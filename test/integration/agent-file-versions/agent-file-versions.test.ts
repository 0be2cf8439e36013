import { beforeAll, describe, expect, it } from 'vitest';
import { handler as deleteVersions } from '#functions/agent-file-versions/delete-agent-file-versions';
import { handler as getVersions } from '#functions/agent-file-versions/get-agent-file-versions';
import { handler as putVersions } from '#functions/agent-file-versions/put-agent-file-versions';
import type { Clock } from '#lib/time';
import { createAgbot, createNode, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';

useTestTable();

type Auth = { user: string; secret: string };
const who: Record<string, Auth> = {};
const IBM = { organization: 'IBM' };
const versions = {
  agentSoftwareVersions: ['2.31.0', '2.30.0'],
  agentConfigVersions: ['0.0.4'],
  agentCertVersions: ['0.0.15', '0.0.14'],
};

beforeAll(async () => {
  await createOrg('acme');
  who.hub = await createUser('root', 'hub', { hubAdmin: true });
  who.ibmAdmin = await createUser('IBM', 'ibmadmin', { admin: true });
  who.ibmUser = await createUser('IBM', 'ibmuser');
  who.admin = await createUser('acme', 'admin', { admin: true });
  who.bob = await createUser('acme', 'bob');
  who.node = await createNode('acme', 'n1', 'acme/bob');
  who.agbot = await createAgbot('acme', 'a1', 'acme/admin');
  who.ibmAgbot = await createAgbot('IBM', 'mt', 'IBM/ibmadmin');
});

describe('/v1/orgs/{organization}/AgentFileVersion before any PUT', () => {
  it('GET answers 404 and DELETE answers 404 without writing', async () => {
    const got = await invoke(getVersions, { auth: ROOT, path: IBM });
    expect(got.status).toBe(404);
    expect(got.body).toEqual({ code: 'not-found', msg: "org 'IBM' not found" });
    const deleted = await invoke(deleteVersions, { auth: ROOT, path: IBM });
    expect(deleted.status).toBe(404);
    expect(deleted.body).toEqual({ code: 'not-found', msg: 'agent file versions not deleted' });
    expect((await invoke(getVersions, { auth: ROOT, path: IBM })).status).toBe(404);
  });
});

describe('PUT /v1/orgs/{organization}/AgentFileVersion', () => {
  it("lets an IBM (multi-tenant) agbot replace IBM's lists, and every identity read them", async () => {
    const at = new Date('2030-01-02T03:04:05.678Z');
    const clock: Clock = { now: () => at };
    const put = await invoke(putVersions.withDeps({ clock }), {
      auth: who.ibmAgbot,
      path: IBM,
      body: versions,
    });
    expect(put.status).toBe(201);
    expect(put.body).toEqual({ code: 'ok', msg: "attribute 'AgentFileVersion' of org 'IBM' updated" });
    for (const caller of [ROOT, who.hub, who.bob, who.node, who.agbot, who.ibmUser]) {
      const got = await invoke(getVersions, { auth: caller as Auth, path: IBM });
      expect(got.status).toBe(200);
      expect(got.body).toEqual({ ...versions, lastUpdated: at.toISOString() });
    }
  });

  it("lets root, hub admins and IBM org admins write IBM's lists; refuses users, nodes, other orgs' admins and agbots", async () => {
    for (const caller of [ROOT, who.hub, who.ibmAdmin]) {
      const result = await invoke(putVersions, { auth: caller as Auth, path: IBM, body: versions });
      expect(result.status).toBe(201);
    }
    for (const caller of [who.admin, who.bob, who.node, who.ibmUser, who.agbot]) {
      const result = await invoke(putVersions, { auth: caller as Auth, path: IBM, body: versions });
      expect(result.status).toBe(403);
      expect(result.body.code).toBe('access-denied');
    }
    const wrong = await invoke(putVersions, { auth: { ...ROOT, secret: 'x' }, path: IBM, body: versions });
    expect(wrong.status).toBe(401);
    expect((await invoke(putVersions, { path: IBM, body: versions })).status).toBe(401);
  });

  it('rejects bad bodies (400 naming the field) and writes nothing', async () => {
    const before = (await invoke(getVersions, { auth: ROOT, path: IBM })).body;
    const cases: [unknown, string][] = [
      [{ ...versions, extra: 1 }, 'extra'],
      [{ agentSoftwareVersions: [], agentConfigVersions: [] }, 'agentCertVersions'],
      [{ ...versions, agentConfigVersions: 'x' }, 'agentConfigVersions'],
      [{ ...versions, agentCertVersions: [1] }, 'agentCertVersions'],
    ];
    for (const [body, field] of cases) {
      const result = await invoke(putVersions, { auth: ROOT, path: IBM, body });
      expect(result.status).toBe(400);
      expect(result.body.code).toBe('invalid-input');
      expect(result.body.msg).toContain(field);
    }
    const malformed = await invoke(putVersions, {
      auth: ROOT,
      path: IBM,
      body: '{"agentSoftwareVersions": [',
    });
    expect(malformed.status).toBe(400);
    expect((await invoke(getVersions, { auth: ROOT, path: IBM })).body).toEqual(before);
  });
});

describe('DELETE /v1/orgs/{organization}/AgentFileVersion', () => {
  it('empties the lists (204); GET then answers 200 with empty lists', async () => {
    expect((await invoke(deleteVersions, { auth: who.bob, path: IBM })).status).toBe(403);
    const at = new Date('2031-05-06T07:08:09.000Z');
    const deleted = await invoke(deleteVersions.withDeps({ clock: { now: () => at } }), {
      auth: who.ibmAgbot,
      path: IBM,
    });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    const got = await invoke(getVersions, { auth: who.node, path: IBM });
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      agentSoftwareVersions: [],
      agentConfigVersions: [],
      agentCertVersions: [],
      lastUpdated: at.toISOString(),
    });
  });
});
