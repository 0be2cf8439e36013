import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getAgreement } from '#functions/agbot-agreements/get-agreement';
import { handler as putAgreement } from '#functions/agbot-agreements/put-agreement';
import { handler as getAgbot } from '#functions/agbots/get-agbot';
import { handler as listAgbots } from '#functions/agbots/list-agbots';
import { handler as patchAgbot } from '#functions/agbots/patch-agbot';
import { handler as confirm } from '#functions/orgs/confirm-agreement';
import { dynamoCallCount } from '#tables/client';
import { createAgbot, createOrg, createUser } from '#test/support/identities';
import { type InvokeOptions, invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';

useTestTable();

type Handler = Parameters<typeof invoke>[0];
let bot: { user: string; secret: string };
let alice: { user: string; secret: string };

/** DynamoDB calls of one warm request (authentication included: the identity is remembered). */
async function callsOf(handler: Handler, options: InvokeOptions, status: number): Promise<number> {
  await invoke(handler, options);
  const before = dynamoCallCount();
  const result = await invoke(handler, options);
  expect(result.status).toBe(status);
  return dynamoCallCount() - before;
}

beforeAll(async () => {
  await createOrg('acme');
  alice = await createUser('acme', 'alice');
  bot = await createAgbot('acme', 'bot', 'acme/alice');
  for (let i = 0; i < 20; i++) await createAgbot('acme', `other-${i}`, 'acme/alice');
});

describe('DynamoDB calls per request (a remembered identity authenticates without a call)', () => {
  const path = { organization: 'acme', agreementbot: 'bot' };
  const body = { service: { orgid: 'acme', pattern: 'p', url: 'u' }, state: 'signed' };

  it('reads: GET agbot 1, GET agreement 2, list 1, confirm 1', async () => {
    expect(await callsOf(getAgbot, { auth: bot, path }, 200)).toBe(1);
    await invoke(putAgreement, { auth: bot, path: { ...path, agreement: 'ag' }, body });
    expect(await callsOf(getAgreement, { auth: bot, path: { ...path, agreement: 'ag' } }, 200)).toBe(2);
    expect(await callsOf(listAgbots, { auth: alice, path: { organization: 'acme' } }, 200)).toBe(1);
    const ask = { auth: bot, path: { organization: 'acme' }, body: { agreementId: 'ag' } };
    expect(await callsOf(confirm, ask, 201)).toBe(1);
  });

  it('writes: agreement update 1, agreement create 2 (the agbot`s own: its record is not read; the org counter moves from the stream), PATCH 3 (the PATCH before made the agbot be read again)', async () => {
    const agreement = { auth: bot, path: { ...path, agreement: 'again' }, body };
    expect(await callsOf(putAgreement, agreement, 201)).toBe(1);
    const before = dynamoCallCount();
    await invoke(putAgreement, { ...agreement, path: { ...path, agreement: 'fresh' } });
    // The update that finds no row, then the create's transaction.
    expect(dynamoCallCount() - before).toBe(2);
    expect(await callsOf(patchAgbot, { auth: bot, path, body: { name: 'n' } }, 200)).toBe(3);
  });

  it('the protocol`s first row ("Formed Proposal") is created first: 1 call (the transaction); written again, 2 (the failed create, then the update)', async () => {
    const proposed = { ...body, state: 'Formed Proposal' };
    const agreement = { auth: bot, path: { ...path, agreement: 'proposed' }, body: proposed };
    await invoke(getAgbot, { auth: bot, path }); // the identity remembered again (the PATCH above)
    let before = dynamoCallCount();
    expect((await invoke(putAgreement, agreement)).status).toBe(201);
    expect(dynamoCallCount() - before).toBe(1);
    // Written again in that state (a resumed proposal): the failed create, then the update.
    before = dynamoCallCount();
    expect((await invoke(putAgreement, agreement)).status).toBe(201);
    expect(dynamoCallCount() - before).toBe(2);
    const got = await invoke(getAgreement, { auth: bot, path: { ...path, agreement: 'proposed' } });
    expect(got.body.agreements.proposed.state).toBe('Formed Proposal');
  });
});
