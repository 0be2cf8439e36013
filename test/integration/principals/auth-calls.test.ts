import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getAgbot } from '#functions/agbots/get-agbot';
import { handler as getNode } from '#functions/nodes/get-node';
import { principalCache } from '#tables/identity/principals';
import { createAgbot, createNode, createOrg, createUser } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';
import { type Auth, commandsOf } from './support.ts';

useTestTable();

let alice: Auth;
let node: Auth;
let bot: Auth;

beforeAll(async () => {
  await createOrg('acme');
  alice = await createUser('acme', 'alice');
  node = await createNode('acme', 'n1', 'acme/alice');
  bot = await createAgbot('acme', 'b1', 'acme/alice');
});

const nodePath = { organization: 'acme', node: 'n1' };

describe('DynamoDB calls of authentication (issue 15: one GetItem when the identity cache misses)', () => {
  // The node's read is one Query returning the node with its liveness item (tables/node/liveness.ts).
  it('a cold-cache GET node: one GetItem for the caller, one Query for the node', async () => {
    for (const caller of [alice, node]) {
      principalCache.forgetAll();
      let status = 0;
      const sent = await commandsOf(async () => {
        status = (await invoke(getNode, { auth: caller, path: nodePath })).status;
      });
      expect(status).toBe(200);
      expect(sent).toEqual(['GetItemCommand', 'QueryCommand']);
    }
  });

  it('a warm GET node: only the node', async () => {
    await invoke(getNode, { auth: alice, path: nodePath });
    const sent = await commandsOf(() => invoke(getNode, { auth: alice, path: nodePath }));
    expect(sent).toEqual(['QueryCommand']);
  });

  it('an agbot and an unknown id cost one GetItem too (never a BatchGetItem)', async () => {
    principalCache.forgetAll();
    const agbotRead = await commandsOf(() =>
      invoke(getAgbot, { auth: bot, path: { organization: 'acme', agreementbot: 'b1' } }),
    );
    expect(agbotRead[0]).toBe('GetItemCommand');
    expect(agbotRead).not.toContain('BatchGetItemCommand');
    let status = 0;
    const unknown = await commandsOf(async () => {
      status = (await invoke(getNode, { auth: { user: 'acme/nobody', secret: 'x' }, path: nodePath })).status;
    });
    expect(status).toBe(401);
    expect(unknown).toEqual(['GetItemCommand']);
  });
});
