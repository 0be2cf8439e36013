import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as servePattern } from '#functions/agbot-patterns/post-pattern';
import { handler as getNode } from '#functions/nodes/get-node';
import { handler as listNodes } from '#functions/nodes/list-nodes';
import { handler as nodeHealth } from '#functions/nodes/node-health';
import { handler as heartbeat } from '#functions/nodes/post-heartbeat';
import { handler as putNode } from '#functions/nodes/put-node';
import { handler as postPattern } from '#functions/patterns/post-pattern';
import { handler as searchPattern } from '#functions/patterns/search-pattern';
import { documentClient, tableName } from '#tables/client';
import { nodeKeys } from '#tables/keys/node';
import { seedService } from '#test/support/catalog';
import { createAgbot, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';

useTestTable();

/**
 * Heartbeats live in the node's liveness item, not on the node (tables/node/liveness.ts): every
 * reader of lastHeartbeat must still see the latest one.
 */
type Auth = { user: string; secret: string };
const ORG = 'live';
const registeredAt = new Date(Date.now() - 3_600_000);
const beatAt = new Date();
let admin: Auth;
let agbot: Auth;
const node: Auth = { user: `${ORG}/n1`, secret: 'n1-token' };

beforeAll(async () => {
  await createOrg(ORG);
  admin = await createUser(ORG, 'admin', { admin: true });
  agbot = await createAgbot(ORG, 'ag', `${ORG}/admin`);
  await seedService(ORG, { url: 'web', version: '1.0.0', arch: 'amd64' });
  const service = {
    serviceUrl: 'web',
    serviceOrgid: ORG,
    serviceArch: 'amd64',
    serviceVersions: [{ version: '1.0.0' }],
  };
  const pattern = await invoke(postPattern, {
    auth: admin,
    path: { organization: ORG, pattern: 'pat' },
    body: { label: 'p', services: [service] },
  });
  expect(pattern.status).toBe(201);
  const served = await invoke(servePattern, {
    auth: ROOT,
    path: { organization: ORG, agreementbot: 'ag' },
    body: { patternOrgid: ORG, pattern: '*', nodeOrgid: ORG },
  });
  expect(served.status).toBe(201);
  for (const [id, patternId] of [
    ['n1', `${ORG}/pat`],
    ['n2', ''],
  ] as const) {
    const put = await invoke(putNode.withDeps({ clock: { now: () => registeredAt } }), {
      auth: admin,
      path: { organization: ORG, node: id },
      body: { name: id, token: `${id}-token`, pattern: patternId, publicKey: `key-${id}`, arch: 'amd64' },
    });
    expect(put.status).toBe(201);
  }
});

const search = () =>
  invoke(searchPattern, {
    auth: agbot,
    path: { organization: ORG, pattern: 'pat' },
    body: { serviceUrl: `${ORG}/web`, secondsStale: 60 },
  });

describe('readers of lastHeartbeat after a heartbeat', () => {
  it('a search with secondsStale skips the node before its heartbeat and finds it after', async () => {
    expect((await search()).status).toBe(404);
    const beat = heartbeat.withDeps({ clock: { now: () => beatAt } });
    for (const id of ['n1', 'n2']) {
      const auth = { user: `${ORG}/${id}`, secret: `${id}-token` };
      expect((await invoke(beat, { auth, path: { organization: ORG, node: id } })).status).toBe(201);
    }
    const found = await search();
    expect(found.status).toBe(201);
    expect(found.body.nodes.map((n: { id: string }) => n.id)).toEqual([`${ORG}/n1`]);
  });

  it('GET node, its lastheartbeat attribute and the node list show the heartbeat, which left the node item alone', async () => {
    const stored = await documentClient.send(
      new GetCommand({ TableName: tableName(), Key: nodeKeys.record(ORG, 'n1'), ConsistentRead: true }),
    );
    expect(stored.Item?.lastHeartbeat).toBe(registeredAt.toISOString());
    const path = { organization: ORG, node: 'n1' };
    const one = await invoke(getNode, { auth: node, path });
    expect(one.body.nodes[`${ORG}/n1`].lastHeartbeat).toBe(beatAt.toISOString());
    const attribute = await invoke(getNode, { auth: node, path, query: { attribute: 'lastheartbeat' } });
    expect(attribute.body.value).toBe(beatAt.toISOString());
    const list = await invoke(listNodes, { auth: admin, path: { organization: ORG } });
    expect(list.body.nodes[`${ORG}/n1`].lastHeartbeat).toBe(beatAt.toISOString());
  });

  it('node health reports the heartbeat and filters on it', async () => {
    const since = new Date(beatAt.getTime() - 1000).toISOString();
    const health = await invoke(nodeHealth, {
      auth: agbot,
      path: { organization: ORG },
      body: { lastTime: since },
    });
    expect(health.status).toBe(201);
    expect(health.body.nodes[`${ORG}/n2`].lastHeartbeat).toBe(beatAt.toISOString());
  });
});
