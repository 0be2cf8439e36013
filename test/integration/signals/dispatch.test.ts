import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { handler as deleteNodeAgreement } from '#functions/node-agreements/delete-agreement';
import { handler as putNodeAgreement } from '#functions/node-agreements/put-agreement';
import { handler } from '#functions/signals/dispatch';
import { SIGNALS_DISPATCH_FUNCTION } from '#functions/signals/function';
import { LOOK_NOW, MAIL_NOW } from '#lib/signals/address';
import { bootstrap } from '#tables/bootstrap';
import { documentClient, dynamoClient, tableName } from '#tables/client';
import { createTableIfMissing } from '#tables/create-table';
import { type Change, recordChanges } from '#tables/feed/changes';
import { feedKeys } from '#tables/feed/keys';
import { nodeKeys } from '#tables/keys/node';
import { recordConnected } from '#tables/node/liveness';
import { addConnection, agbotConnections, nodeConnections } from '#tables/signals/connections';
import { createNode, createOrg, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import type { StreamRecord } from '../../../scripts/local/dynamodb-streams.ts';
import { mappingOf, type StreamReader, startStreamReader } from '../../../scripts/local/stream-reader.ts';

/**
 * The signal dispatcher (functions/signals/dispatch.ts, docs/signals.md) on DynamoDB Local: change
 * rows written by the feed's own write (tables/feed/changes.ts) reach the handler through the
 * table's real stream, filtered by the stack's own patterns (the local event source mapping,
 * scripts/local/stream-reader.ts, invoking the handler in this process). The management API is a
 * small HTTP server here (API Gateway cannot run on this machine): each connection id gets a
 * script of answers, and every call is recorded.
 */

type Answer = 200 | 410 | 500;
interface Call {
  method: string;
  connectionId: string;
  body: string;
}

const calls: Call[] = [];
/** Per connection id: the answers to its posts in turn (the last one repeats); 200 by default. */
const postScripts = new Map<string, Answer[]>();
/** Per connection id: what the test looks at when a post reaches it, before it is answered. */
const onPost = new Map<string, () => Promise<void>>();
/** Per connection id: the answer to its close; 204 by default. */
const closeAnswers = new Map<string, 204 | 500>();
let management: Server;
let reader: StreamReader;
/** The batches the handler finished, with what it threw. */
const finished: { rows: string[]; error?: string }[] = [];

const ORG = `sigd-${randomBytes(3).toString('hex')}`;
const callsTo = (connectionId: string, method = 'POST') =>
  calls.filter((c) => c.connectionId === connectionId && c.method === method);

function startManagementApi(): Promise<string> {
  management = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const connectionId = decodeURIComponent(String(req.url).split('/@connections/')[1] ?? '');
      const method = req.method ?? '';
      calls.push({ method, connectionId, body: Buffer.concat(chunks).toString() });
      if (method === 'DELETE') {
        res.writeHead(closeAnswers.get(connectionId) ?? 204).end();
        return;
      }
      await onPost.get(connectionId)?.();
      const script = postScripts.get(connectionId) ?? [200];
      const answer = (script.length > 1 ? script.shift() : script[0]) as Answer;
      res.writeHead(answer, { 'content-type': 'application/json' }).end(answer === 200 ? '' : '{}');
    });
  });
  return new Promise((resolve) =>
    management.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(management.address() as AddressInfo).port}`),
    ),
  );
}

/** Records `changes` as a write does; answers once the handler has finished the batch carrying them. */
async function written(changes: Change[]): Promise<{ error?: string }> {
  const marker = `${changes[0]?.resource}:${changes[0]?.id}`;
  await recordChanges(changes);
  return vi.waitFor(
    () => {
      const batch = finished.find((b) => b.rows.includes(marker));
      if (!batch) throw new Error(`no finished batch with ${marker} yet`);
      return batch;
    },
    { timeout: 30_000, interval: 50 },
  );
}

/** The org's numbered feed rows, read raw: unlike test/support/changes.ts `feedRows`, it numbers nothing first. */
async function orgFeedRows(): Promise<Record<string, unknown>[]> {
  const { Items = [] } = await documentClient.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': feedKeys.orgPartition(ORG) },
      ConsistentRead: true,
    }),
  );
  return Items;
}

const nodeRow = (id: string, resource = 'nodemsgs'): Change => ({
  org: ORG,
  id,
  resource,
  operation: 'created',
});

beforeAll(async () => {
  await createTableIfMissing(tableName());
  await bootstrap();
  process.env.EXCHANGE_SIGNALS_MANAGEMENT_URL = await startManagementApi();
  await createOrg(ORG);
  reader = await startStreamReader({
    dynamoEndpoint: process.env.DYNAMODB_ENDPOINT as string,
    table: tableName(),
    mapping: mappingOf('signalsDispatch', SIGNALS_DISPATCH_FUNCTION),
    pollMs: 50,
    retryBaseMs: 50,
    log: () => undefined,
    invoke: async (records: StreamRecord[]) => {
      const rows = records.map((r) => {
        const image = r.dynamodb?.NewImage as Record<string, { S?: string }>;
        return `${image.resource?.S}:${image.id?.S}`;
      });
      try {
        await handler({ Records: records as never });
        finished.push({ rows });
      } catch (error) {
        finished.push({ rows, error: (error as Error).message });
        throw error;
      }
    },
  });
});

afterAll(async () => {
  await reader?.stop();
  management?.close();
  delete process.env.EXCHANGE_SIGNALS_MANAGEMENT_URL;
  await dynamoClient.send(new DeleteTableCommand({ TableName: tableName() })).catch(() => undefined);
});

describe('the signal dispatcher on the table stream', () => {
  it('posts "look now" to the connections the rows wake, and to no other', async () => {
    await addConnection('d-n1', { kind: 'node', org: ORG, id: 'n1' });
    await addConnection('d-n2', { kind: 'node', org: ORG, id: 'n2' });
    await addConnection('d-agbot', { kind: 'agbot', org: ORG, id: 'a1' });
    await addConnection('d-other-agbot', { kind: 'agbot', org: 'some-other-org', id: 'a1' });

    // A node's mailbox: that node only (agbots never read a node's mailbox rows).
    expect(await written([nodeRow('n1')])).toEqual({ rows: ['nodemsgs:n1'] });
    expect(callsTo('d-n1')).toEqual([{ method: 'POST', connectionId: 'd-n1', body: LOOK_NOW }]);
    expect(calls.map((c) => c.connectionId)).toEqual(['d-n1']);

    // A node policy: the node and its org's agbots read it; another org's agbot does not.
    expect(await written([nodeRow('n2', 'nodepolicies')])).toEqual({ rows: ['nodepolicies:n2'] });
    expect(callsTo('d-n2')).toHaveLength(1);
    expect(callsTo('d-agbot')).toHaveLength(1);
    expect(callsTo('d-other-agbot')).toHaveLength(0);
    expect(callsTo('d-n1')).toHaveLength(1);
  });

  it('tells a node that asked for it "mail now" when only its mailbox has something, "look now" otherwise', async () => {
    await addConnection('d-mail', { kind: 'node', org: ORG, id: 'mail' }, new Date(), { hearsMail: true });
    await addConnection('d-mail-old', { kind: 'node', org: ORG, id: 'mail' });
    const bodies = (connectionId: string) => callsTo(connectionId).map((c) => c.body);

    // Only its mailbox: the connection that asked hears "mail now"; one that did not (an agent
    // installed before it existed) hears "look now", and polls as it always did.
    expect(await written([nodeRow('mail')])).toEqual({ rows: ['nodemsgs:mail'] });
    expect(bodies('d-mail')).toEqual([MAIL_NOW]);
    expect(bodies('d-mail-old')).toEqual([LOOK_NOW]);

    // Its mailbox and its policy in one batch: the feed has more than mail, so both look.
    expect(await written([nodeRow('mail', 'nodepolicies'), nodeRow('mail')])).toEqual({
      rows: ['nodepolicies:mail', 'nodemsgs:mail'],
    });
    expect(bodies('d-mail')).toEqual([MAIL_NOW, LOOK_NOW]);
    expect(bodies('d-mail-old')).toEqual([LOOK_NOW, LOOK_NOW]);

    // An agbot never hears "mail now", even if it asks for it: its feed is read as ever.
    await addConnection('d-mail-agbot', { kind: 'agbot', org: ORG, id: 'a-mail' }, new Date(), {
      hearsMail: true,
    });
    expect((await agbotConnections()).find((a) => a.connectionId === 'd-mail-agbot')?.hearsMail).toBe(false);
  });

  it("numbers the batch's change rows before it signals: a woken node's read finds them without waiting", async () => {
    await addConnection('d-numbered', { kind: 'node', org: ORG, id: 'numbered' });
    let seenAtSignal: string[] = [];
    // The org's numbered rows as they are when the signal arrives (read raw: nothing numbered here).
    onPost.set('d-numbered', async () => {
      seenAtSignal = (await orgFeedRows()).map((item) => `${item.resource}:${item.id}`);
    });
    await written([nodeRow('numbered')]);
    expect(callsTo('d-numbered')).toHaveLength(1);
    expect(seenAtSignal).toContain('nodemsgs:numbered');
  });

  it('delivers a post that fails twice at its third attempt, and keeps the connection', async () => {
    await addConnection('d-flaky', { kind: 'node', org: ORG, id: 'flaky' });
    postScripts.set('d-flaky', [500, 500, 200]);
    expect(await written([nodeRow('flaky')])).toEqual({ rows: ['nodemsgs:flaky'] });
    expect(callsTo('d-flaky')).toHaveLength(3);
    expect(callsTo('d-flaky', 'DELETE')).toHaveLength(0);
    expect(await nodeConnections(ORG, 'flaky')).toEqual(['d-flaky']);
  });

  it('closes and forgets a connection whose posts all fail; the node reads as gone from then on', async () => {
    await createNode(ORG, 'deaf', 'root/root');
    await addConnection('d-deaf', { kind: 'node', org: ORG, id: 'deaf' });
    expect(await recordConnected(ORG, 'deaf', 'd-deaf', new Date().toISOString())).toBe(true);
    postScripts.set('d-deaf', [500]);
    expect(await written([nodeRow('deaf')])).toEqual({ rows: ['nodemsgs:deaf'] });
    // The first post and its 3 retries, then the close.
    expect(callsTo('d-deaf')).toHaveLength(4);
    expect(callsTo('d-deaf', 'DELETE')).toHaveLength(1);
    expect(await nodeConnections(ORG, 'deaf')).toEqual([]);
    const { Item } = await documentClient.send(
      new GetCommand({ TableName: tableName(), Key: nodeKeys.heartbeat(ORG, 'deaf'), ConsistentRead: true }),
    );
    expect(Item?.connection).toBeUndefined();
    expect(Item?.lastHeartbeat).toEqual(expect.any(String));
  });

  it('forgets a connection API Gateway says is gone (410), without retrying it', async () => {
    // Opened two minutes ago: well past its $connect.
    await addConnection('d-gone', { kind: 'agbot', org: ORG, id: 'gone' }, new Date(Date.now() - 120_000));
    postScripts.set('d-gone', [410]);
    // An org row wakes the org's agbots.
    const orgRow: Change = { org: ORG, id: ORG, resource: 'org', operation: 'modified' };
    expect(await written([orgRow])).toEqual({ rows: [`org:${ORG}`] });
    expect(callsTo('d-gone')).toHaveLength(1);
    expect(callsTo('d-gone', 'DELETE')).toHaveLength(0);
    expect((await agbotConnections()).map((c) => c.connectionId)).not.toContain('d-gone');
  });

  it('keeps a connection answered 410 while it may still be opening (its $connect recorded it a moment ago)', async () => {
    // API Gateway registers a connection once $connect has answered; $connect records it before.
    await addConnection('d-opening', { kind: 'node', org: ORG, id: 'opening' });
    postScripts.set('d-opening', [410]);
    expect(await written([nodeRow('opening')])).toEqual({ rows: ['nodemsgs:opening'] });
    expect(callsTo('d-opening')).toHaveLength(1);
    expect(await nodeConnections(ORG, 'opening')).toEqual(['d-opening']);
  });

  it('fails the batch when a connection can be neither posted to nor closed: the mapping invokes again', async () => {
    await addConnection('d-stuck', { kind: 'node', org: ORG, id: 'stuck' });
    postScripts.set('d-stuck', [500]);
    closeAnswers.set('d-stuck', 500);
    const failuresBefore = reader.failures();
    const outcome = await written([nodeRow('stuck')]);
    expect(outcome.error).toMatch(/neither delivered nor the connection closed: d-stuck/);
    // The same row again, up to the mapping's retries, then dropped; the connection stays.
    await vi.waitFor(
      () => expect(finished.filter((b) => b.rows.includes('nodemsgs:stuck'))).toHaveLength(3),
      { timeout: 60_000, interval: 100 },
    );
    expect(reader.failures() - failuresBefore).toBe(3);
    await vi.waitFor(() => expect(reader.dropped()).toBe(1), { timeout: 60_000, interval: 50 });
    expect(await nodeConnections(ORG, 'stuck')).toEqual(['d-stuck']);
  }, 90_000);

  it('does not wake a node for the agreement rows it writes itself; a write of them by its owner wakes it', async () => {
    const self = await createNode(ORG, 'self', 'root/root');
    await addConnection('d-self', { kind: 'node', org: ORG, id: 'self' });
    const batchesOfSelf = () => finished.filter((b) => b.rows.includes('nodeagreements:self')).length;
    const agreementPath = (agid: string) => ({ path: { organization: ORG, node: 'self', agid } });
    const body = {
      services: [{ orgid: ORG, url: 'svc' }],
      agreementService: { orgid: ORG, pattern: '', url: `${ORG}/svc` },
      state: 'Agree to proposal',
    };
    /** Runs a route's write; once the stream reader has handled it, its change row was one batch. */
    const routeWrite = async (write: () => Promise<{ status: number }>, status: number) => {
      const before = batchesOfSelf();
      expect((await write()).status).toBe(status);
      await reader.settled();
      expect(batchesOfSelf()).toBe(before + 1);
    };

    // The node's own "Agree to proposal", its "Finalized Agreement" and its cancellation.
    await routeWrite(() => invoke(putNodeAgreement, { auth: self, ...agreementPath('a1'), body }), 201);
    await routeWrite(
      () =>
        invoke(putNodeAgreement, {
          auth: self,
          ...agreementPath('a1'),
          body: { ...body, state: 'Finalized Agreement' },
        }),
      201,
    );
    await routeWrite(() => invoke(deleteNodeAgreement, { auth: self, ...agreementPath('a1') }), 204);
    expect(callsTo('d-self')).toHaveLength(0);

    // Its owner (here root) writes and deletes an agreement of the node: the node is told each time.
    await routeWrite(() => invoke(putNodeAgreement, { auth: ROOT, ...agreementPath('a2'), body }), 201);
    expect(callsTo('d-self')).toHaveLength(1);
    await routeWrite(() => invoke(deleteNodeAgreement, { auth: ROOT, ...agreementPath('a2') }), 204);
    expect(callsTo('d-self')).toHaveLength(2);

    // The node's feed shows all five rows alike: who wrote one is not kept once it is numbered.
    const rows = (await orgFeedRows()).filter(
      (item) => item.resource === 'nodeagreements' && item.id === 'self',
    );
    expect(rows.map((row) => row.operation)).toEqual([
      'created/modified',
      'created/modified',
      'deleted',
      'created/modified',
      'deleted',
    ]);
    expect(rows.filter((row) => 'byItsNode' in row)).toEqual([]);
  });
});
