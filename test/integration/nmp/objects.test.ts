import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as deleteObject } from '#functions/objects/delete-object';
import { handler as getObject } from '#functions/objects/get-object';
import { handler as getData } from '#functions/objects/get-object-data';
import { handler as getUploadUrl } from '#functions/objects/get-upload-url';
import { handler as listObjects } from '#functions/objects/list-objects';
import { handler as listTypeObjects } from '#functions/objects/list-type-objects';
import { handler as putObject } from '#functions/objects/put-object';
import { handler as putData } from '#functions/objects/put-object-data';
import { handler as deleteOrg } from '#functions/orgs/delete-org';
import { getObject as storedObject } from '#tables/object/records';
import { getAgentFileVersions } from '#tables/org/agent-file-versions';
import { createNode, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';
import { tempDir } from '#test/support/temp-dir';
import { type ObjectStore, startObjectStore } from '../../../scripts/local/object-store.ts';

useTestTable();

type Auth = { user: string; secret: string };
const who: Record<string, Auth> = {};
let store: ObjectStore;

const at = (organization: string, objectType: string, objectID: string) => ({
  organization,
  objectType,
  objectID,
});
const meta = (objectType: string, objectID: string, extra: Record<string, unknown> = {}) => ({
  meta: { objectID, objectType, ...extra },
});
const SOFTWARE = 'agent_software_files-2.1.0';
const BINARY = 'horizon-agent-linux-x64';

beforeAll(async () => {
  store = await startObjectStore({ dir: tempDir('objects-') });
  process.env.EXCHANGE_OBJECTS_URL = store.url;
  process.env.EXCHANGE_OBJECTS_SECRET = store.secret;
  await createOrg('IBM');
  await createOrg('acme');
  await createOrg('other');
  who.ibm = await createUser('IBM', 'publisher', { admin: true });
  who.admin = await createUser('acme', 'admin', { admin: true });
  who.user = await createUser('acme', 'user');
  who.node = await createNode('acme', 'n1', 'acme/user');
  who.otherNode = await createNode('other', 'o1', 'other/x');
});
afterAll(async () => {
  await store?.stop();
  delete process.env.EXCHANGE_OBJECTS_URL;
  delete process.env.EXCHANGE_OBJECTS_SECRET;
});

describe('agent files: uploaded to a signed URL, published by the metadata', () => {
  it('the publisher uploads the data directly, then PUTs the metadata; IBM AgentFileVersion follows', async () => {
    const url = await invoke(getUploadUrl, { auth: who.ibm as Auth, path: at('IBM', SOFTWARE, BINARY) });
    expect(url.status).toBe(200);
    expect(url.body).toMatchObject({ method: 'PUT', expiresSeconds: 900 });
    const bytes = Buffer.alloc(64 * 1024, 7);
    expect((await fetch(url.body.url, { method: 'PUT', body: bytes })).status).toBe(200);
    const put = await invoke(putObject, {
      auth: who.ibm as Auth,
      path: at('IBM', SOFTWARE, BINARY),
      body: meta(SOFTWARE, BINARY, {
        public: true,
        version: '2.1.0',
        destinationOrgID: 'IBM',
        instanceID: 0,
        lastUpdate: '',
      }),
    });
    expect(put.status, put.text).toBe(204);
    expect((await getAgentFileVersions('IBM'))?.agentSoftwareVersions).toEqual(['2.1.0']);
  });

  it('a node of another org reads the public object: metadata, and its data through a 302 to a signed URL', async () => {
    const got = await invoke(getObject, { auth: who.otherNode as Auth, path: at('IBM', SOFTWARE, BINARY) });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      objectID: BINARY,
      objectType: SOFTWARE,
      destinationOrgID: 'IBM',
      public: true,
      objectSize: 65536,
    });
    const data = await invoke(getData, { auth: who.otherNode as Auth, path: at('IBM', SOFTWARE, BINARY) });
    expect(data.status).toBe(302);
    const download = await fetch(data.headers.location as string);
    expect(Buffer.from(await download.arrayBuffer()).equals(Buffer.alloc(64 * 1024, 7))).toBe(true);
    const listed = await invoke(listObjects, {
      auth: who.node as Auth,
      path: { organization: 'IBM' },
      query: { filters: 'true', objectType: SOFTWARE },
    });
    expect(listed.body.map((m: { objectID: string }) => m.objectID)).toEqual([BINARY]);
  });

  it('a signed URL works only for its method and key, and not once altered', async () => {
    const data = await invoke(getData, { auth: who.node as Auth, path: at('IBM', SOFTWARE, BINARY) });
    const location = data.headers.location as string;
    expect((await fetch(location, { method: 'PUT', body: 'x' })).status).toBe(403);
    expect(
      (await fetch(location.replace('BINARY', 'x').replace(/expires=\d+/, 'expires=9999999999'))).status,
    ).toBe(403);
    expect((await fetch(location.replace(/signature=[0-9a-f]{4}/, 'signature=0000'))).status).toBe(403);
  });

  it('a version counts only once an object of it has data', async () => {
    const type = 'agent_software_files-3.0.0';
    expect(
      (
        await invoke(putObject, {
          auth: who.ibm as Auth,
          path: at('IBM', type, BINARY),
          body: meta(type, BINARY, { public: true }),
        })
      ).status,
    ).toBe(204);
    expect((await getAgentFileVersions('IBM'))?.agentSoftwareVersions).toEqual(['2.1.0']);
    const small = await invoke(putData, {
      auth: who.ibm as Auth,
      path: at('IBM', type, BINARY),
      body: 'tiny',
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(small.status, small.text).toBe(204);
    expect((await getAgentFileVersions('IBM'))?.agentSoftwareVersions).toEqual(['3.0.0', '2.1.0']);
    expect(
      (await invoke(deleteObject, { auth: who.ibm as Auth, path: at('IBM', type, BINARY) })).status,
    ).toBe(204);
    expect((await getAgentFileVersions('IBM'))?.agentSoftwareVersions).toEqual(['2.1.0']);
  });
});

describe('manifests and rights', () => {
  const MANIFEST = 'agent_upgrade_manifests';
  it('an org admin stores a manifest (metadata, then its data inline); the org reads it; other orgs do not', async () => {
    expect(
      (
        await invoke(putObject, {
          auth: who.admin as Auth,
          path: at('acme', MANIFEST, 'm1'),
          body: meta(MANIFEST, 'm1'),
        })
      ).status,
    ).toBe(204);
    const manifest = { softwareUpgrade: { version: '2.1.0', files: ['*'] } };
    expect(
      (await invoke(putData, { auth: who.admin as Auth, path: at('acme', MANIFEST, 'm1'), body: manifest }))
        .status,
    ).toBe(204);
    const data = await invoke(getData, { auth: who.node as Auth, path: at('acme', MANIFEST, 'm1') });
    expect(await (await fetch(data.headers.location as string)).json()).toEqual(manifest);
    const filtered = await invoke(listObjects, {
      auth: who.user as Auth,
      path: { organization: 'acme' },
      query: { filters: 'true', objectType: MANIFEST, objectID: 'm1' },
    });
    expect(filtered.status).toBe(200);
    expect(
      (await invoke(getObject, { auth: who.otherNode as Auth, path: at('acme', MANIFEST, 'm1') })).status,
    ).toBe(404);
    const none = await invoke(listTypeObjects, {
      auth: who.otherNode as Auth,
      path: { organization: 'acme', objectType: MANIFEST },
    });
    expect(none.status).toBe(404);
    expect(none.body).toEqual([]);
  });

  it('refuses writes by plain users and nodes, other orgs, public objects outside IBM and metadata naming another object', async () => {
    for (const auth of [who.user, who.node, who.ibm] as Auth[]) {
      expect(
        (await invoke(putObject, { auth, path: at('acme', MANIFEST, 'x'), body: meta(MANIFEST, 'x') }))
          .status,
      ).toBe(403);
      expect((await invoke(getUploadUrl, { auth, path: at('acme', MANIFEST, 'x') })).status).toBe(403);
    }
    const publicElsewhere = await invoke(putObject, {
      auth: who.admin as Auth,
      path: at('acme', MANIFEST, 'x'),
      body: meta(MANIFEST, 'x', { public: true }),
    });
    expect(publicElsewhere.status).toBe(400);
    const mismatch = await invoke(putObject, {
      auth: who.admin as Auth,
      path: at('acme', MANIFEST, 'x'),
      body: meta(MANIFEST, 'y'),
    });
    expect(mismatch.status).toBe(400);
    const unknown = await invoke(putObject, {
      auth: ROOT,
      path: at('acme', MANIFEST, 'x'),
      body: meta(MANIFEST, 'x', { colour: 'red' }),
    });
    expect(unknown.status).toBe(400);
    expect(
      (await invoke(getObject, { auth: who.user as Auth, path: at('acme', MANIFEST, 'x') })).status,
    ).toBe(404);
  });

  it("deleting the org deletes its objects' metadata", async () => {
    await createOrg('brief');
    const boss = await createUser('brief', 'boss', { admin: true });
    expect(
      (await invoke(putObject, { auth: boss, path: at('brief', MANIFEST, 'm'), body: meta(MANIFEST, 'm') }))
        .status,
    ).toBe(204);
    expect((await invoke(deleteOrg, { auth: ROOT, path: { organization: 'brief' } })).status).toBe(204);
    expect(await storedObject('brief', MANIFEST, 'm')).toBeUndefined();
  });
});
