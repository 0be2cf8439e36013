import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { handler as deleteAgbot } from '#functions/agbots/delete-agbot';
import { handler as putAgbot } from '#functions/agbots/put-agbot';
import { putAgreement } from '#tables/agbot/agreement-records';
import { getAgbot } from '#tables/agbot/records';
import { dynamoClient, tableName } from '#tables/client';
import { agbotKeys } from '#tables/keys/agbot';
import { getUserCounts } from '#tables/org/stats';
import { batchPut } from '#test/support/batch-put';
import { createAgbot, createNode, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { partitionSortKeys } from '#test/support/partition';
import { useStreamCounts } from '#test/support/stream-counts';
import { useTestTable } from '#test/support/table';

useTestTable();
// The org counters of messages and agreements move from the table's stream (tables/org/stream-counts.ts).
const { orgCounts } = useStreamCounts();

type Auth = { user: string; secret: string };
const remove = (auth: Auth, agreementbot: string, organization = 'acme') =>
  invoke(deleteAgbot, { auth, path: { organization, agreementbot } });

const CHILDREN = 30;

/**
 * An agbot with CHILDREN of each kind: agreements (through the records), served patterns and
 * policies and messages (written with their keys), and the message id counter. The org counts
 * its agreements and messages from the table's stream, however they were written.
 */
async function agbotWithChildren(org: string, id: string, owner: string) {
  const auth = await createAgbot(org, id, owner);
  const service = { orgid: org, pattern: 'p', url: 'u' };
  for (let i = 0; i < CHILDREN; i++) {
    const write = { org, agbot: id, agreementId: `ag-${i}`, owner, service, state: 's', now: 'now' };
    expect(await putAgreement(write, 0)).toBe('created');
  }
  const range = Array.from({ length: CHILDREN }, (_, i) => i);
  await batchPut([
    ...range.map((i) => ({ ...agbotKeys.pattern(org, id, `${org}_pat${i}`), pattern: `pat${i}` })),
    ...range.map((i) => ({ ...agbotKeys.policy(org, id, `${org}_pol${i}`), businessPol: `pol${i}` })),
    ...range.map((i) => ({ ...agbotKeys.message(org, id, i + 1), message: 'm', ttl: 4102444800 })),
    { pk: agbotKeys.record(org, id).pk, sk: 'MSGSEQ', seq: CHILDREN },
  ]);
  return auth;
}

let throttled = 0;
/** Makes DynamoDB Local leave half of every full BatchWrite unprocessed, as a throttled table does. */
function throttleBatchWrites() {
  dynamoClient.middlewareStack.add(
    (next, context) => async (args) => {
      // biome-ignore lint/suspicious/noExplicitAny: the document client's BatchWrite input and output.
      const input = args.input as any;
      const requests = input.RequestItems?.[tableName()];
      if (context.commandName !== 'BatchWriteItemCommand' || requests?.length !== 25) return next(args);
      const kept = requests.slice(0, 10);
      const result = await next({ ...args, input: { ...input, RequestItems: { [tableName()]: kept } } });
      // biome-ignore lint/suspicious/noExplicitAny: see above.
      (result.output as any).UnprocessedItems = { [tableName()]: requests.slice(10) };
      throttled += requests.length - kept.length;
      return result;
    },
    { step: 'initialize', name: 'throttleBatchWrites' },
  );
}

let alice: Auth;
let bob: Auth;

beforeAll(async () => {
  await createOrg('acme');
  await createOrg('other');
  alice = await createUser('acme', 'alice');
  bob = await createUser('acme', 'bob');
});

afterEach(() => {
  dynamoClient.middlewareStack.remove('throttleBatchWrites');
});

describe('DELETE /v1/orgs/{organization}/agbots/{agreementbot}', () => {
  it('deletes the agbot with > 25 children of each kind, retrying unprocessed items, and nothing else', async () => {
    await agbotWithChildren('acme', 'big', 'acme/alice');
    await agbotWithChildren('acme', 'big2', 'acme/alice');
    await agbotWithChildren('other', 'big', 'other/olga');
    const acme = await orgCounts('acme');
    const other = await orgCounts('other');
    const owner = await getUserCounts('acme', 'alice');
    expect(acme).toMatchObject({ agbots: 2, agbotAgreements: 2 * CHILDREN, agbotMsgs: 2 * CHILDREN });
    throttleBatchWrites();
    const result = await remove(alice, 'big');
    expect(result.status).toBe(204);
    expect(result.text).toBe('');
    expect(throttled).toBeGreaterThan(0);
    // No orphan: the partition is empty.
    expect(await partitionSortKeys(agbotKeys.record('acme', 'big').pk)).toEqual([]);
    expect(await getAgbot('acme', 'big')).toBeUndefined();
    expect(await orgCounts('acme')).toMatchObject({
      agbots: acme.agbots - 1,
      agbotAgreements: acme.agbotAgreements - CHILDREN,
      agbotMsgs: acme.agbotMsgs - CHILDREN,
    });
    expect((await getUserCounts('acme', 'alice')).agbots).toBe(owner.agbots - 1);
    // Other agbots (same id elsewhere, similar id here) keep everything.
    for (const [org, id] of [
      ['acme', 'big2'],
      ['other', 'big'],
    ] as const) {
      expect(await partitionSortKeys(agbotKeys.record(org, id).pk)).toHaveLength(4 * CHILDREN + 2);
    }
    expect(await orgCounts('other')).toEqual(other);
    // Its credentials are gone; the id is free again.
    expect((await remove({ user: 'acme/big', secret: 'big-token' }, 'big')).status).toBe(401);
    const again = await invoke(putAgbot, {
      auth: bob,
      path: { organization: 'acme', agreementbot: 'big' },
      body: { token: 't', name: 'n', publicKey: 'k' },
    });
    expect(again.status).toBe(200);
    expect(await partitionSortKeys(agbotKeys.record('acme', 'big').pk)).toEqual(['AGBOT']);
  });

  it('lets the agbot itself, org admins, hub admins and root delete; refuses other users and nodes', async () => {
    const self = await createAgbot('acme', 'self', 'acme/alice');
    expect((await remove(self, 'self')).status).toBe(204);
    await createAgbot('acme', 'a2', 'acme/alice');
    const node = await createNode('acme', 'n1', 'acme/alice');
    const other = await createAgbot('acme', 'other-bot', 'acme/alice');
    for (const who of [bob, node, other]) {
      const denied = await remove(who, 'a2');
      expect(denied.status).toBe(403);
      expect(denied.body.code).toBe('access-denied');
    }
    expect(await getAgbot('acme', 'a2')).toBeDefined();
    const admin = await createUser('acme', 'boss', { admin: true });
    expect((await remove(admin, 'a2')).status).toBe(204);
    const hub = await createUser('root', 'hub', { hubAdmin: true });
    await createAgbot('acme', 'a3', 'acme/alice');
    expect((await remove(hub, 'a3')).status).toBe(204);
    await createAgbot('acme', 'a4', 'acme/alice');
    expect((await remove(ROOT, 'a4')).status).toBe(204);
    expect((await remove({ user: 'acme/alice', secret: 'wrong' }, 'a4')).status).toBe(401);
  });

  it('answers 404 for a missing agbot; concurrent deletes count it once', async () => {
    const missing = await remove(alice, 'ghost');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 'not-found', msg: "agbot 'acme/ghost' not found" });
    await agbotWithChildren('acme', 'twice', 'acme/alice');
    const before = await orgCounts('acme');
    const results = await Promise.all([
      remove(alice, 'twice'),
      remove(alice, 'twice'),
      remove(ROOT, 'twice'),
    ]);
    expect(results.filter((r) => r.status === 204)).toHaveLength(1);
    expect(results.filter((r) => r.status === 404)).toHaveLength(2);
    expect(await partitionSortKeys(agbotKeys.record('acme', 'twice').pk)).toEqual([]);
    expect(await orgCounts('acme')).toMatchObject({
      agbots: before.agbots - 1,
      agbotAgreements: before.agbotAgreements - CHILDREN,
      agbotMsgs: before.agbotMsgs - CHILDREN,
    });
  });
});
