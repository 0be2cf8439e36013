import { beforeAll, describe, expect, it } from 'vitest';
import { handler as changes } from '#functions/console/list-node-changes';
import { handler as getNode } from '#functions/nodes/get-node';
import { handler as putErrors } from '#functions/nodes/put-node-errors';
import { type Change, recordChanges } from '#tables/feed/changes';
import { dynamoUsageOf } from '#test/support/dynamo-usage';
import { createAgbot, createNode, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';

useTestTable();

type Auth = { user: string; secret: string };
const read = (auth: Auth, node = 'n1', query: Record<string, string> = {}, organization = 'acme') =>
  invoke(changes, { auth, path: { organization, node }, query });
const resources = (result: { body: { changes: { resource: string }[] } }) =>
  result.body.changes.map((row) => row.resource);

let bob: Auth;
let alice: Auth;
let admin: Auth;
let otherAdmin: Auth;
let agbot: Auth;
let n1: Auth;

beforeAll(async () => {
  await createOrg('acme');
  await createOrg('other');
  bob = await createUser('acme', 'bob');
  alice = await createUser('acme', 'alice');
  admin = await createUser('acme', 'admin', { admin: true });
  otherAdmin = await createUser('other', 'boss', { admin: true });
  agbot = await createAgbot('acme', 'bot', 'acme/admin');
  n1 = await createNode('acme', 'n1', 'acme/bob');
  await createNode('acme', 'n2', 'acme/bob');
  // 25 rows about n1, oldest first; rows about n2 and a service that shares n1's id in between.
  const row = (resource: string, id = 'n1'): Change => ({ org: 'acme', id, resource, operation: 'modified' });
  for (let i = 0; i < 25; i++)
    await recordChanges([
      row(i % 2 ? 'nodepolicies' : 'nodestatus'),
      row('nodestatus', 'n2'),
      row('service', 'n1'),
    ]);
  await recordChanges([row('nodeagreements')]);
});

describe('GET /v1/console/orgs/{organization}/nodes/{node}/changes', () => {
  it("answers the node's own rows, newest first, 20 by default", async () => {
    const result = await read(bob);
    expect(result.status).toBe(200);
    expect(result.body.node).toBe('acme/n1');
    expect(result.body.changes).toHaveLength(20);
    expect(resources(result)[0]).toBe('nodeagreements');
    expect(new Set(resources(result))).toEqual(new Set(['nodeagreements', 'nodestatus', 'nodepolicies']));
    const ids = result.body.changes.map((row: { changeId: number }) => row.changeId);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect((await read(bob, 'n1', { limit: '3' })).body.changes).toHaveLength(3);
    expect((await read(bob, 'n1', { limit: '100' })).body.changes).toHaveLength(26);
  });

  it('shows a real write of the node at once (numbered by the read itself)', async () => {
    const put = await invoke(putErrors, {
      auth: n1,
      path: { organization: 'acme', node: 'n1' },
      body: { errors: [{ message: 'pull failed' }] },
    });
    expect(put.status).toBe(201);
    expect((await read(admin, 'n1', { limit: '1' })).body.changes).toMatchObject([
      { resource: 'nodeerrors', operation: 'created/modified' },
    ]);
  });

  it('costs the same Query with a Limit whatever the feed holds', async () => {
    const calls = await dynamoUsageOf(() => read(admin, 'n1', { limit: '5' }));
    // The node's read (authorization: node and liveness), the numbering check, the node's own index partition.
    expect(calls.map((call) => call.command)).toEqual(['Query', 'Query', 'Query']);
    expect(calls.every((call) => call.writeUnits === 0)).toBe(true);
  });

  it('authorizes as the node read does: same status for every kind of caller', async () => {
    const callers = { bob, alice, admin, otherAdmin, agbot, n1, root: ROOT };
    for (const [name, auth] of Object.entries(callers)) {
      for (const node of ['n1', 'n2', 'absent']) {
        const expected = await invoke(getNode, { auth, path: { organization: 'acme', node } });
        const answer = await read(auth, node);
        expect(answer.status, `${name} on ${node}`).toBe(expected.status);
      }
    }
    expect((await read(alice)).status).toBe(403);
    expect((await read(otherAdmin)).status).toBe(403);
    expect((await read(bob, 'absent')).status).toBe(404);
    expect((await read(n1, 'n2')).status).toBe(403);
  });

  it('refuses a bad query parameter with 400 naming it, after the node read only (upstream order)', async () => {
    for (const [query, field] of [
      [{ limit: '0' }, 'limit'],
      [{ limit: '101' }, 'limit'],
      [{ limit: 'ten' }, 'limit'],
      [{ since: '1' }, 'since'],
    ] as const) {
      let result = { status: 0, body: { code: '', msg: '' } };
      const calls = await dynamoUsageOf(async () => {
        result = await read(admin, 'n1', query);
      });
      expect(result.status, JSON.stringify(query)).toBe(400);
      expect(result.body.msg).toContain(`'${field}'`);
      expect(calls.map((call) => [call.command, call.writeUnits])).toEqual([['Query', 0]]);
    }
  });
});
