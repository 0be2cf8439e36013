import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { instanceAuthCaches } from '#functions/endpoint';
import { authenticate } from '#lib/auth/authenticate';
import { basicAuthHeader } from '#lib/auth/basic';
import { documentClient, tableName } from '#tables/client';
import { backfillPrincipals, backfillPrincipalsOnce } from '#tables/identity/backfill';
import { identityKeys } from '#tables/identity/keys';
import { principalCache } from '#tables/identity/principals';
import { principalSet } from '#tables/identity/records';
import { transactWrite } from '#tables/kernel/transact';
import { nodeKeys } from '#tables/keys/node';
import { createAgbot, createNode, createOrg, createUser } from '#test/support/identities';
import { useTestTable } from '#test/support/table';
import {
  type Auth,
  corruptPrincipal,
  deletePrincipalItem,
  expectPrincipalMatches,
  principalItem,
} from './support.ts';

useTestTable();

const statusOf = async ({ user, secret }: Auth): Promise<number> => {
  principalCache.forgetAll();
  try {
    await authenticate(basicAuthHeader(user, secret), instanceAuthCaches);
    return 200;
  } catch (error) {
    return (error as { status: number }).status;
  }
};

let alice: Auth;
let node: Auth;
let bot: Auth;

beforeAll(async () => {
  await createOrg('acme');
  alice = await createUser('acme', 'alice');
  node = await createNode('acme', 'n1', 'acme/alice');
  bot = await createAgbot('acme', 'b1', 'acme/alice');
  await createUser('acme', 'n1', { password: 'shadowed' });
});

describe('npm run backfill-principals (tables/identity/backfill.ts)', () => {
  it('writes the entries a table from before principal items lacks, so those identities log in again', async () => {
    for (const id of ['alice', 'n1', 'b1']) await deletePrincipalItem('acme', id);
    for (const auth of [alice, node, bot]) expect(await statusOf(auth)).toBe(401);
    const report = await backfillPrincipals();
    expect(report.written).toBe(4); // alice, node n1, user n1, agbot b1
    for (const id of ['alice', 'n1', 'b1']) await expectPrincipalMatches('acme', id);
    for (const auth of [alice, node, bot]) expect(await statusOf(auth)).toBe(200);
    // The node still outranks the user of the same id.
    expect(await statusOf({ user: 'acme/n1', secret: 'shadowed' })).toBe(401);
  });

  it('corrects a wrong entry and removes entries (and items) whose record is gone', async () => {
    await corruptPrincipal('acme', 'alice', 'user', 'not-a-hash');
    expect(await statusOf(alice)).toBe(401);
    // An entry of a node that does not exist beside a live user; an item of nothing at all.
    await transactWrite([principalSet('acme', 'alice', 'node', { secretHash: 'x', owner: 'acme/alice' })]);
    await transactWrite([principalSet('acme', 'ghost', 'agbot', { secretHash: 'x', owner: 'acme/alice' })]);
    const report = await backfillPrincipals();
    expect(report).toMatchObject({ written: 1, removed: 2 });
    await expectPrincipalMatches('acme', 'alice');
    expect(await principalItem('acme', 'ghost')).toBeUndefined();
    expect(await statusOf(alice)).toBe(200);
  });

  it("gives a node entry written before entries held keys the node's public key", async () => {
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: nodeKeys.record('acme', 'n1'),
        UpdateExpression: 'SET publicKey = :key',
        ExpressionAttributeValues: { ':key': 'n1-key' },
      }),
    );
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: identityKeys.principal('acme', 'n1'),
        UpdateExpression: 'REMOVE #node.publicKey',
        ExpressionAttributeNames: { '#node': 'node' },
      }),
    );
    expect(await backfillPrincipals()).toMatchObject({ written: 1, removed: 0 });
    expect((await principalItem('acme', 'n1'))?.node).toMatchObject({ publicKey: 'n1-key' });
    await expectPrincipalMatches('acme', 'n1');
  });

  it('is idempotent: a second run writes and removes nothing', async () => {
    expect(await backfillPrincipals()).toMatchObject({ written: 0, removed: 0 });
  });

  it('runs once per table for the local launcher', async () => {
    expect(await backfillPrincipalsOnce()).toBeUndefined();
    await documentClient.send(new DeleteCommand({ TableName: tableName(), Key: identityKeys.backfilled() }));
    await deletePrincipalItem('acme', 'b1');
    expect(await backfillPrincipalsOnce()).toMatchObject({ written: 1 });
    expect(await statusOf(bot)).toBe(200);
  });
});
