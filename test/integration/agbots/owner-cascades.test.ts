import { beforeAll, describe, expect, it } from 'vitest';
import { handler as putAgreement } from '#functions/agbot-agreements/put-agreement';
import { handler as putAgbot } from '#functions/agbots/put-agbot';
import { handler as deleteOrg } from '#functions/orgs/delete-org';
import { handler as deleteUser } from '#functions/users/delete-user';
import { agbotKeys } from '#tables/keys/agbot';
import { userKeys } from '#tables/keys/user';
import { getUserCounts } from '#tables/org/stats';
import { createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { partitionSortKeys } from '#test/support/partition';
import { useStreamCounts } from '#test/support/stream-counts';
import { useTestTable } from '#test/support/table';

useTestTable();
// The org counters of messages and agreements move from the table's stream (tables/org/stream-counts.ts).
const { orgCounts } = useStreamCounts();

type Auth = { user: string; secret: string };
const service = { orgid: 'o', pattern: 'p', url: 'u' };

/** An agbot created through the API by `auth`, with `agreements` agreements and one stored message. */
async function agbotWith(auth: Auth, org: string, id: string, agreements: number) {
  const path = { organization: org, agreementbot: id };
  expect(
    (await invoke(putAgbot, { auth, path, body: { token: 't', name: id, publicKey: 'k' } })).status,
  ).toBe(200);
  for (let i = 0; i < agreements; i++) {
    const agreementPath = { ...path, agreement: `${id}-ag${i}` };
    const result = await invoke(putAgreement, { auth, path: agreementPath, body: { service, state: 's' } });
    expect(result.status).toBe(201);
  }
  const { PutCommand } = await import('@aws-sdk/lib-dynamodb');
  const { documentClient, tableName } = await import('#tables/client');
  // Counted in the org from the table's stream, however it was written.
  await documentClient.send(new PutCommand({ TableName: tableName(), Item: agbotKeys.message(org, id, 1) }));
}

let hub: Auth;

beforeAll(async () => {
  await createOrg('acme');
  await createOrg('doomed');
  hub = await createUser('root', 'hub', { hubAdmin: true });
});

describe('deleting an owner takes its agbots along, counters included', () => {
  it('deleting a user deletes its agbots with their children and uncounts them in the org', async () => {
    const alice = await createUser('acme', 'alice');
    await agbotWith(alice, 'acme', 'a1', 3);
    await agbotWith(alice, 'acme', 'a2', 2);
    const bob = await createUser('acme', 'bob');
    await agbotWith(bob, 'acme', 'b1', 1);
    const before = await orgCounts('acme');
    expect(before).toMatchObject({ agbots: 3, agbotAgreements: 6, agbotMsgs: 3 });
    const result = await invoke(deleteUser, {
      auth: ROOT,
      path: { organization: 'acme', username: 'alice' },
    });
    expect(result.status).toBe(204);
    for (const id of ['a1', 'a2'])
      expect(await partitionSortKeys(agbotKeys.record('acme', id).pk)).toEqual([]);
    expect(await partitionSortKeys(agbotKeys.record('acme', 'b1').pk)).toHaveLength(3);
    expect(await orgCounts('acme')).toMatchObject({ agbots: 1, agbotAgreements: 1, agbotMsgs: 1 });
  });

  it('deleting a hub admin deletes the agbots it owns in other orgs', async () => {
    const doomedHub = await createUser('root', 'temp-hub', { hubAdmin: true });
    await agbotWith(doomedHub, 'acme', 'hub-bot', 2);
    expect(await partitionSortKeys(userKeys.record('root', 'temp-hub').pk)).toContain(
      'OWNS#AGBOT#acme/hub-bot',
    );
    const before = await orgCounts('acme');
    const result = await invoke(deleteUser, {
      auth: ROOT,
      path: { organization: 'root', username: 'temp-hub' },
    });
    expect(result.status).toBe(204);
    expect(await partitionSortKeys(agbotKeys.record('acme', 'hub-bot').pk)).toEqual([]);
    expect(await partitionSortKeys(userKeys.record('root', 'temp-hub').pk)).toEqual([]);
    expect(await orgCounts('acme')).toMatchObject({
      agbots: before.agbots - 1,
      agbotAgreements: before.agbotAgreements - 2,
      agbotMsgs: before.agbotMsgs - 1,
    });
  });

  it('deleting an org takes its agbots out of a foreign owner’s count, link included', async () => {
    await agbotWith(hub, 'doomed', 'hub-bot', 1);
    const local = await createUser('doomed', 'dan');
    await agbotWith(local, 'doomed', 'dan-bot', 1);
    expect((await getUserCounts('root', 'hub')).agbots).toBe(1);
    const result = await invoke(deleteOrg, { auth: ROOT, path: { organization: 'doomed' } });
    expect(result.status).toBe(204);
    for (const id of ['hub-bot', 'dan-bot'])
      expect(await partitionSortKeys(agbotKeys.record('doomed', id).pk)).toEqual([]);
    expect((await getUserCounts('root', 'hub')).agbots).toBe(0);
    expect(await partitionSortKeys(userKeys.record('root', 'hub').pk)).not.toContain(
      'OWNS#AGBOT#doomed/hub-bot',
    );
  });
});
