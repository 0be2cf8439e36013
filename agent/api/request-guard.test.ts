/**
 * What a web page in a browser on the node's host could send to the local API (api/request-guard.ts):
 * DNS rebinding (a foreign Host), cross-site requests (a foreign Origin) and HTML form posts
 * (a body that is not application/json). Each is refused before it changes anything.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Agent } from '../agent.ts';
import { ConfigError, loadConfig } from '../ground/config.ts';
import { loadPolicy } from '../node/local.ts';
import { makeCert, rsaKey } from '../test-support/certs.ts';
import type { FakeExchange } from '../test-support/fake-exchange.ts';
import {
  newAgent,
  registerNode,
  startAgentUnderTest,
  stopAgentUnderTest,
  tempDir,
} from '../test-support/harness.ts';
import { hostName } from './request-guard.ts';

let fake: FakeExchange;
let dir: ReturnType<typeof tempDir>;
let agent: Agent;

beforeEach(async () => {
  ({ fake, dir, agent } = await startAgentUnderTest());
  await registerNode(agent, fake);
});
afterEach(() => stopAgentUnderTest({ fake, dir, agent }));

/** The policy a page would like the node to have. */
const takeover = JSON.stringify({ properties: [{ name: 'platform.allowPrivileged', value: true }] });
const allowsPrivileged = () =>
  (loadPolicy(agent.ctx.store)?.properties ?? []).some(
    (p) => p.name === 'platform.allowPrivileged' && p.value === true,
  );

const send = (
  headers: Record<string, string>,
  payload: string | undefined = takeover,
  method: 'POST' | 'GET' = 'POST',
) =>
  agent.app.inject({
    method,
    url: '/node/policy',
    headers: { 'content-type': 'application/json', ...headers },
    ...(payload === undefined ? {} : { payload }),
  });

const expectRefused = (res: Awaited<ReturnType<typeof send>>, status: number, input: string) => {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.json()).toEqual({ error: expect.any(String), input });
};

describe('Host: only loopback names (DNS rebinding sends the attacker’s)', () => {
  it.each([
    'evil.example',
    'evil.example:8510',
    'attacker.test:80',
    'localhost.evil.example',
    '127.0.0.1.nip.io:8510',
    '10.0.0.5:8510',
  ])('Host %j → 403, nothing written', async (host) => {
    expectRefused(await send({ host }), 403, 'host');
    expectRefused(await send({ host }, undefined, 'GET'), 403, 'host');
    expect(allowsPrivileged()).toBe(false);
  });

  it('a rebinding page reaches no route: not /trust, not an unknown path either', async () => {
    const pem = makeCert({ key: rsaKey(), subject: '/CN=page' }).cert;
    const trust = await agent.app.inject({
      method: 'PUT',
      url: '/trust/page.pem',
      headers: { host: 'rebind.attacker.example:8510' },
      payload: pem,
    });
    expectRefused(trust, 403, 'host');
    expect((await agent.app.inject({ method: 'GET', url: '/trust' })).json()).toEqual({ pem: [] });
    const unknown = await agent.app.inject({
      method: 'GET',
      url: '/nope',
      headers: { host: 'evil.example' },
    });
    expectRefused(unknown, 403, 'host');
    // A path the router cannot decode is refused for its Host first, not answered 400.
    const undecodable = await agent.app.inject({
      method: 'DELETE',
      url: '/attribute/%C0%AF',
      headers: { host: 'evil.example' },
    });
    expectRefused(undecodable, 403, 'host');
  });

  it.each([
    'localhost',
    'localhost:8510',
    'LOCALHOST:8510',
    '127.0.0.1',
    '127.0.0.1:8510',
    '[::1]',
    '[::1]:8510',
  ])('Host %j is served', async (host) => {
    expect((await send({ host })).statusCode).toBe(201);
    expect(allowsPrivileged()).toBe(true);
  });

  it('names from HZN_AGENT_ALLOWED_HOSTS are served too', async () => {
    const otherDir = tempDir();
    const other = await newAgent(fake.url, otherDir.path, {
      allowedHosts: ['node1.lan', '192.168.1.20', 'fd00::1'],
    });
    try {
      for (const host of ['node1.lan:8510', 'NODE1.LAN', '192.168.1.20:8510', '[fd00::1]:8510'])
        expect(
          (await other.app.inject({ method: 'GET', url: '/status', headers: { host } })).statusCode,
          host,
        ).toBe(200);
      const res = await other.app.inject({ method: 'GET', url: '/status', headers: { host: 'node2.lan' } });
      expect(res.statusCode).toBe(403);
    } finally {
      await other.stop();
      otherDir.remove();
    }
  });
});

describe('Origin: no cross-site requests', () => {
  it.each([
    'https://evil.example',
    'http://evil.example:8510',
    'null',
    'file://',
    'http://localhost.evil.example',
    'chrome-extension://abc',
    '',
  ])('Origin %j → 403, nothing written', async (origin) => {
    expectRefused(await send({ origin }), 403, 'origin');
    expect(allowsPrivileged()).toBe(false);
  });

  it.each(['http://localhost:8510', 'http://127.0.0.1:3000', 'http://[::1]:8510', 'https://localhost'])(
    'Origin %j (a page of this host) is served',
    async (origin) => {
      expect((await send({ origin })).statusCode).toBe(201);
    },
  );
});

describe('Content type: bodies only as application/json (a form can post nothing)', () => {
  it.each([
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'text/plain',
    'text/plain; charset=utf-8',
    'application/xml',
    'json',
    '',
  ])('%j → 415, nothing written', async (type) => {
    expectRefused(await send({ 'content-type': type }), 415, 'content-type');
    expect(allowsPrivileged()).toBe(false);
  });

  it('a body without a content type → 415', async () => {
    const res = await agent.app.inject({
      method: 'POST',
      url: '/node/policy',
      payload: Buffer.from(takeover),
    });
    expectRefused(res, 415, 'content-type');
    expect(allowsPrivileged()).toBe(false);
  });

  it('application/json (with a charset or in capitals) is served; a request without a body needs no type', async () => {
    expect((await send({ 'content-type': 'application/json; charset=utf-8' })).statusCode).toBe(201);
    expect((await send({ 'content-type': 'Application/JSON' })).statusCode).toBe(201);
    const bare = await agent.app.inject({
      method: 'DELETE',
      url: '/node/policy',
      headers: { 'content-type': 'text/plain' },
    });
    expect(bare.statusCode).toBe(204);
    expect((await agent.app.inject({ method: 'GET', url: '/node/policy' })).statusCode).toBe(200);
  });

  it('PUT /trust takes its PEM as text, but never as a form', async () => {
    const pem = makeCert({ key: rsaKey(), subject: '/CN=form' }).cert;
    for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const res = await agent.app.inject({
        method: 'PUT',
        url: '/trust/f.pem',
        headers: { 'content-type': type },
        payload: pem,
      });
      expectRefused(res, 415, 'content-type');
    }
    expect((await agent.app.inject({ method: 'GET', url: '/trust' })).json()).toEqual({ pem: [] });
  });
});

describe('HZN_AGENT_ALLOWED_HOSTS', () => {
  it('takes host names and addresses, refuses wildcards, ports and URLs', () => {
    expect(loadConfig({}).allowedHosts).toEqual([]);
    expect(loadConfig({ HZN_AGENT_ALLOWED_HOSTS: 'node1.lan, 10.0.0.5,[fd00::1]' }).allowedHosts).toEqual([
      'node1.lan',
      '10.0.0.5',
      '[fd00::1]',
    ]);
    for (const bad of ['*', 'node1.lan:8510', 'http://node1.lan', '*.lan', '.', 'a b'])
      expect(() => loadConfig({ HZN_AGENT_ALLOWED_HOSTS: bad }), bad).toThrow(ConfigError);
  });

  it('compares names without port and case', () => {
    expect(hostName('LocalHost:8510')).toBe('localhost');
    expect(hostName('[::1]:8510')).toBe('[::1]');
    expect(hostName('fd00::1')).toBe('[fd00::1]');
  });
});
