import { beforeAll, describe, expect, it } from 'vitest';
import { handler as patchAgbot } from '#functions/agbots/patch-agbot';
import { handler as putAgbot } from '#functions/agbots/put-agbot';
import { type ExchangeConfig, getConfig } from '#lib/config';
import { getAgbot } from '#tables/agbot/records';
import { createOrg, createUser } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';

useTestTable();

type Auth = { user: string; secret: string };
const body = { token: 'bot-token', name: 'Bot', publicKey: 'KEY' };
const withStatus = (agbotWriteStatus: 200 | 201) => {
  const config: ExchangeConfig = { ...getConfig(), compat: { agbotWriteStatus } };
  return { config: () => config };
};

let alice: Auth;

beforeAll(async () => {
  await createOrg('acme');
  alice = await createUser('acme', 'alice');
});

describe('compat.agbotWriteStatus: the status of agbot PUT and PATCH', () => {
  it.each([200, 201] as const)('answers %i to PUT (create and replace) and PATCH', async (status) => {
    const deps = withStatus(status);
    const path = { organization: 'acme', agreementbot: `bot${status}` };
    const created = await invoke(putAgbot.withDeps(deps), { auth: alice, path, body });
    expect(created.status).toBe(status);
    expect(created.body).toEqual({ code: 'ok', msg: 'agbot added or updated' });
    const replaced = await invoke(putAgbot.withDeps(deps), {
      auth: alice,
      path,
      body: { ...body, name: 'B2' },
    });
    expect(replaced.status).toBe(status);
    const patched = await invoke(patchAgbot.withDeps(deps), { auth: alice, path, body: { name: 'B3' } });
    expect(patched.status).toBe(status);
    expect(patched.body).toEqual({
      code: 'ok',
      msg: `attribute 'name' of agbot 'acme/bot${status}' updated`,
    });
    expect((await getAgbot('acme', `bot${status}`))?.name).toBe('B3');
  });

  it('is 200 by default (upstream: 201)', async () => {
    expect(getConfig().compat.agbotWriteStatus).toBe(200);
    const path = { organization: 'acme', agreementbot: 'plain' };
    expect((await invoke(putAgbot, { auth: alice, path, body })).status).toBe(200);
    expect((await invoke(patchAgbot, { auth: alice, path, body: { name: 'x' } })).status).toBe(200);
  });

  it('does not change the status of failures', async () => {
    const deps = withStatus(201);
    const path = { organization: 'acme', agreementbot: 'missing' };
    const bad = await invoke(patchAgbot.withDeps(deps), {
      auth: alice,
      path,
      body: { name: 'x', publicKey: 'y' },
    });
    expect(bad.status).toBe(400);
    expect((await invoke(patchAgbot.withDeps(deps), { auth: alice, path, body: { name: 'x' } })).status).toBe(
      404,
    );
  });
});
