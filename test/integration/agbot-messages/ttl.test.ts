import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getMessage } from '#functions/agbot-messages/get-message';
import { handler as postMessage } from '#functions/agbot-messages/post-message';
import { getConfig } from '#lib/config';
import { listMessages as storedMessages } from '#tables/agbot/message-records';
import { createAgbot, createOrg, createUser } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';
import { createSender } from './fixtures.ts';

useTestTable();

type Auth = { user: string; secret: string };
const at = new Date('2031-01-01T00:00:00.000Z');
const clock = { now: () => at };
const withMaxTtl = (maxMessageTtlSeconds: number) => {
  const config = getConfig();
  return () => ({ ...config, limits: { ...config.limits, maxMessageTtlSeconds } });
};
const path = { organization: 'acme', agreementbot: 'bot' };
const later = (seconds: number) => new Date(at.getTime() + seconds * 1000).toISOString();

let alice: Auth;
let node: Auth;

beforeAll(async () => {
  await createOrg('acme');
  alice = await createUser('acme', 'alice');
  await createAgbot('acme', 'bot', 'acme/alice');
  node = await createSender('acme', 'n1', 'acme/alice');
});

describe('message ttl past limits.maxMessageTtlSeconds', () => {
  it("is cut to the maximum: upstream's 8,640,000 s with a one-hour maximum expires in an hour", async () => {
    const post = postMessage.withDeps({ clock, config: withMaxTtl(3600) });
    const sent = await invoke(post, { auth: node, path, body: { message: 'long', ttl: 8_640_000 } });
    expect(sent.status).toBe(201);
    expect(sent.body).toEqual({ code: 'ok', msg: 'agbot msg 1 inserted' });
    const got = await invoke(getMessage.withDeps({ clock }), {
      auth: alice,
      path: { ...path, message: '1' },
    });
    expect(got.status).toBe(200);
    expect(got.body.messages[0]).toMatchObject({ timeSent: at.toISOString(), timeExpires: later(3600) });
    const [stored] = await storedMessages('acme', 'bot');
    // DynamoDB's TTL sweep follows the clamped expiry (a day of grace), not the asked one.
    expect(stored?.ttl).toBe(at.getTime() / 1000 + 3600 + 86400);
  });

  it('keeps a ttl within the maximum as given, and accepts exactly the maximum', async () => {
    const post = postMessage.withDeps({ clock, config: withMaxTtl(3600) });
    expect((await invoke(post, { auth: node, path, body: { message: 'a', ttl: 60 } })).status).toBe(201);
    expect((await invoke(post, { auth: node, path, body: { message: 'b', ttl: 3600 } })).status).toBe(201);
    const expiries = (await storedMessages('acme', 'bot')).map((m) => m.timeExpires);
    expect(expiries).toEqual([later(3600), later(60), later(3600)]);
  });

  it("stores upstream's 8,640,000 s as given under the default maximum (100 days)", async () => {
    expect(getConfig().limits.maxMessageTtlSeconds).toBe(8_640_000);
    const post = postMessage.withDeps({ clock });
    const sent = await invoke(post, { auth: node, path, body: { message: 'c', ttl: 8_640_000 } });
    expect(sent.status).toBe(201);
    const got = await invoke(getMessage.withDeps({ clock }), {
      auth: alice,
      path: { ...path, message: '4' },
    });
    expect(got.body.messages[0].timeExpires).toBe(later(8_640_000));
  });

  it.each([0, -1])('still refuses a ttl of %i (400) and stores nothing', async (ttl) => {
    const post = postMessage.withDeps({ clock, config: withMaxTtl(3600) });
    const result = await invoke(post, { auth: node, path, body: { message: 'x', ttl } });
    expect(result.status).toBe(400);
    expect(result.body).toEqual({
      code: 'invalid-input',
      msg: expect.stringMatching(/'ttl': must be at least 1/),
    });
    expect((await storedMessages('acme', 'bot')).map((m) => m.msgId)).toEqual([1, 2, 3, 4]);
  });
});
