import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Agent } from '../agent.ts';
import { loadAttributes } from '../attributes/store.ts';
import type { FakeExchange } from '../test-support/fake-exchange.ts';
import {
  newAgent,
  registerNode,
  startAgentUnderTest,
  stopAgentUnderTest,
  type tempDir,
} from '../test-support/harness.ts';

let fake: FakeExchange;
let dir: ReturnType<typeof tempDir>;
let agent: Agent;

beforeEach(async () => {
  ({ fake, dir, agent } = await startAgentUnderTest());
});
afterEach(() => stopAgentUnderTest({ fake, dir, agent }));

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
const inject = (method: Method, url: string, payload?: unknown) =>
  agent.app.inject({
    method,
    url,
    // As hzn sends them: a body is application/json (api/request-guard.ts).
    ...(payload === undefined
      ? {}
      : { payload: payload as object, headers: { 'content-type': 'application/json' } }),
  });

const userInput = {
  type: 'UserInputAttributes',
  label: 'settings',
  service_specs: [{ url: 'svc1', organization: 'org1' }],
  mappings: { VAR1: 'a', VAR2: 5, LIST: ['x', 'y'] },
};
const dockerAuth = {
  type: 'DockerRegistryAuthAttributes',
  label: 'registries',
  mappings: { auths: [{ registry: 'registry.example', token: 'SECRET-TOKEN' }] },
};

/** POST, then the id from Location. */
async function create(body: unknown): Promise<string> {
  const res = await inject('POST', '/attribute', body);
  expect(res.statusCode, res.body).toBe(201);
  return String(res.headers.location).replace('/attribute/', '');
}

describe('/attribute', () => {
  it('answers 424 JSON on every method before a node is registered', async () => {
    for (const [method, url] of [
      ['GET', '/attribute'],
      ['POST', '/attribute'],
      ['GET', '/attribute/x'],
      ['PUT', '/attribute/x'],
      ['PATCH', '/attribute/x'],
      ['DELETE', '/attribute/x'],
    ] as const) {
      const res = await inject(method, url, method === 'GET' || method === 'DELETE' ? undefined : userInput);
      expect(res.statusCode, `${method} ${url}`).toBe(424);
      expect(res.headers['content-type']).toContain('application/json');
      expect(res.json()).toEqual({
        error:
          "Exchange registration not recorded. Complete account and node registration with an exchange and then record node registration using this API's /node path.",
        input: 'node',
      });
    }
  });

  it('creates (201, no body, Location), lists and reads one, wrapped in attributes', async () => {
    await registerNode(agent, fake);
    const res = await inject('POST', '/attribute', userInput);
    expect(res.statusCode).toBe(201);
    expect(res.body).toBe('');
    const id = String(res.headers.location).replace('/attribute/', '');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const expected = { id, publishable: true, host_only: false, ...userInput };
    expect((await inject('GET', '/attribute')).json()).toEqual({ attributes: [expected] });
    expect((await inject('GET', `/attribute/${id}`)).json()).toEqual({ attributes: [expected] });
    // Upstream: an unknown id is an empty list.
    expect((await inject('GET', '/attribute/nope')).json()).toEqual({ attributes: [] });
  });

  it('defaults: publishable true, host_only false, no service_specs = all services; ignores an id in the body', async () => {
    await registerNode(agent, fake);
    const id = await create({ id: 'mine', type: 'UserInputAttributes', label: 'x', mappings: {} });
    expect(id).not.toBe('mine');
    expect((await inject('GET', `/attribute/${id}`)).json().attributes[0]).toEqual({
      id,
      type: 'UserInputAttributes',
      label: 'x',
      publishable: true,
      host_only: false,
      service_specs: [],
      mappings: {},
    });
  });

  it('never shows registry tokens or passwords, but keeps them', async () => {
    await registerNode(agent, fake);
    const docker = await create(dockerAuth);
    const basic = await create({
      type: 'HTTPSBasicAuthAttributes',
      label: 'web',
      mappings: { url: 'https://x.example', username: 'u', password: 'PASSWORD' },
    });
    const list = await inject('GET', '/attribute');
    expect(list.body).not.toContain('SECRET-TOKEN');
    expect(list.body).not.toContain('PASSWORD');
    const byId = Object.fromEntries(list.json().attributes.map((a: { id: string }) => [a.id, a]));
    expect(byId[docker].mappings).toEqual({
      auths: [{ registry: 'registry.example', username: 'token', token: '********' }],
    });
    expect(byId[basic].mappings).toEqual({ url: 'https://x.example', username: 'u', password: '**********' });
    const stored = loadAttributes(agent.ctx.store);
    expect(stored.find((a) => a.id === docker)?.mappings).toEqual({
      auths: [{ registry: 'registry.example', username: 'token', token: 'SECRET-TOKEN' }],
    });
    const events = await inject('GET', '/eventlog/all');
    expect(events.body).not.toContain('SECRET-TOKEN');
    expect(events.body).not.toContain('PASSWORD');
    for (const response of [
      await inject('PUT', `/attribute/${docker}`, dockerAuth),
      await inject('DELETE', `/attribute/${docker}`),
    ]) {
      expect(response.body).not.toContain('SECRET-TOKEN');
    }
  });

  it('checks mappings by type and names the field', async () => {
    await registerNode(agent, fake);
    const cases: [unknown, string][] = [
      [{ ...userInput, mappings: { BAD: { nested: true } } }, 'mappings.BAD'],
      [{ ...userInput, mappings: { FLAG: true } }, 'mappings.FLAG'],
      [{ ...userInput, mappings: { LIST: ['a', 1] } }, 'mappings.LIST'],
      [{ ...userInput, mappings: { 'bad<key>': 'x' } }, 'mappings.bad<key>'],
      [{ ...userInput, mappings: undefined }, 'mappings'],
      [{ ...userInput, label: undefined }, 'label'],
      [{ ...userInput, label: 'no;semicolons' }, 'label'],
      [{ ...userInput, type: 'PropertyAttributes' }, 'type'],
      [{ ...userInput, publishable: 'yes' }, 'publishable'],
      [{ ...userInput, service_specs: [{ url: 'a{b}', organization: 'o' }] }, 'service_specs[0].url'],
      [{ ...dockerAuth, mappings: { auths: [] } }, 'mappings.auths'],
      [{ ...dockerAuth, mappings: { auths: [{ registry: 'r' }] } }, 'mappings.auths[0].token'],
      [{ ...dockerAuth, mappings: { auths: [{ token: 't' }] } }, 'mappings.auths[0].registry'],
      [
        { type: 'HTTPSBasicAuthAttributes', label: 'w', mappings: { url: 'u', username: 'n' } },
        'mappings.password',
      ],
      [
        { type: 'HTTPSBasicAuthAttributes', label: 'w', mappings: { url: 1, username: 'n', password: 'p' } },
        'mappings.url',
      ],
      [{ type: 'MeteringAttributes', label: 'm', mappings: { tokens: 5 } }, 'mappings.perTimeUnit'],
      [
        { type: 'MeteringAttributes', label: 'm', mappings: { notificationInterval: 1.5 } },
        'mappings.notificationInterval',
      ],
      [
        { type: 'AgreementProtocolAttributes', label: 'p', mappings: { protocols: [] } },
        'mappings.protocols',
      ],
      [
        { type: 'AgreementProtocolAttributes', label: 'p', mappings: { protocols: [{ Other: [] }] } },
        'mappings.protocols[0]',
      ],
    ];
    for (const [body, input] of cases) {
      const res = await inject('POST', '/attribute', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().input, JSON.stringify(body)).toBe(input);
    }
    expect((await inject('POST', '/attribute', 'not json{')).statusCode).toBe(400);
    expect(loadAttributes(agent.ctx.store)).toEqual([]);
  });

  it('stores the other types with their rules (metering shown in upstream spelling)', async () => {
    await registerNode(agent, fake);
    const metering = await create({
      type: 'MeteringAttributes',
      label: 'meter',
      mappings: { tokens: 2, perTimeUnit: 'hour', notificationInterval: 30 },
    });
    const protocol = await create({
      type: 'AgreementProtocolAttributes',
      label: 'proto',
      mappings: { protocols: [{ Basic: [] }] },
    });
    const list = Object.fromEntries(
      (await inject('GET', '/attribute'))
        .json()
        .attributes.map((a: { id: string; mappings: unknown }) => [a.id, a.mappings]),
    );
    expect(list[metering]).toEqual({ tokens: 2, per_time_unit: 'hour', notification_interval: 30 });
    expect(list[protocol]).toEqual({ protocols: [{ Basic: [] }] });
  });

  it('refuses the same attribute twice with 409 (service spec order aside)', async () => {
    await registerNode(agent, fake);
    const body = {
      ...userInput,
      service_specs: [
        { url: 'a', organization: 'o' },
        { url: 'b', organization: 'o' },
      ],
    };
    await create(body);
    const again = await inject('POST', '/attribute', {
      ...body,
      service_specs: [...body.service_specs].reverse(),
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().input).toBe('attribute');
    await create({ ...body, label: 'another label' });
    expect(loadAttributes(agent.ctx.store)).toHaveLength(2);
  });

  it('PUT replaces (200 with the attribute), 404 for an unknown id', async () => {
    await registerNode(agent, fake);
    const id = await create(userInput);
    const res = await inject('PUT', `/attribute/${id}`, { ...dockerAuth, host_only: true });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id,
      type: 'DockerRegistryAuthAttributes',
      label: 'registries',
      publishable: true,
      host_only: true,
      service_specs: [],
      mappings: { auths: [{ registry: 'registry.example', username: 'token', token: '********' }] },
    });
    const missing = await inject('PUT', '/attribute/nope', userInput);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'attribute nope not found', input: 'id' });
  });

  it('PATCH merges mappings and service specs, keeps what it does not name, refuses other types', async () => {
    await registerNode(agent, fake);
    const id = await create({ ...userInput, publishable: false });
    const res = await inject('PATCH', `/attribute/${id}`, {
      type: 'UserInputAttributes',
      service_specs: [
        { url: 'svc2', organization: 'org1' },
        { url: 'svc1', organization: 'org1' },
      ],
      mappings: { VAR2: 6, VAR3: 'new' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      id,
      type: 'UserInputAttributes',
      label: 'settings',
      publishable: false,
      host_only: false,
      service_specs: [
        { url: 'svc1', organization: 'org1' },
        { url: 'svc2', organization: 'org1' },
      ],
      mappings: { VAR1: 'a', VAR2: 6, LIST: ['x', 'y'], VAR3: 'new' },
    });
    const noType = await inject('PATCH', `/attribute/${id}`, { mappings: { A: 'b' } });
    expect(noType.statusCode).toBe(400);
    expect(noType.json()).toMatchObject({ input: 'type', error: expect.stringContaining('missing type') });
    expect(
      (await inject('PATCH', `/attribute/${id}`, { type: 'DockerRegistryAuthAttributes' })).statusCode,
    ).toBe(400);
    expect(
      (await inject('PATCH', `/attribute/${id}`, { type: 'UserInputAttributes', mappings: { A: {} } }))
        .statusCode,
    ).toBe(400);
    const meter = await create({ type: 'MeteringAttributes', label: 'm', mappings: {} });
    const unsupported = await inject('PATCH', `/attribute/${meter}`, {
      type: 'MeteringAttributes',
      label: 'n',
    });
    expect(unsupported.json()).toEqual({ error: 'partial update unsupported', input: 'type' });
    expect((await inject('PATCH', '/attribute/nope', { type: 'UserInputAttributes' })).statusCode).toBe(404);
  });

  it('PATCH of registry credentials replaces the same registry and user, adds the others', async () => {
    await registerNode(agent, fake);
    const id = await create(dockerAuth);
    await inject('PATCH', `/attribute/${id}`, {
      type: 'DockerRegistryAuthAttributes',
      mappings: {
        auths: [
          { registry: 'registry.example', token: 'NEW' },
          { registry: 'other.example', username: 'bob', token: 'T2' },
        ],
      },
    });
    expect(loadAttributes(agent.ctx.store)[0]?.mappings).toEqual({
      auths: [
        { registry: 'registry.example', username: 'token', token: 'NEW' },
        { registry: 'other.example', username: 'bob', token: 'T2' },
      ],
    });
  });

  it('DELETE answers the deleted attribute (200), then 404; every write is logged', async () => {
    await registerNode(agent, fake);
    const id = await create(userInput);
    await inject('PUT', `/attribute/${id}`, userInput);
    const res = await inject('DELETE', `/attribute/${id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id, label: 'settings' });
    expect((await inject('DELETE', `/attribute/${id}`)).statusCode).toBe(404);
    expect((await inject('GET', '/attribute')).json()).toEqual({ attributes: [] });
    const codes = (await inject('GET', '/eventlog?message=~attribute'))
      .json()
      .map((e: { event_code: string }) => e.event_code);
    expect(codes).toEqual(['create_attribute', 'update_attribute', 'delete_attribute']);
  });

  it('keeps attributes across a restart and forgets them at unregistration', async () => {
    await registerNode(agent, fake);
    const id = await create(userInput);
    await agent.stop();
    agent = await newAgent(fake.url, dir.path);
    expect((await inject('GET', '/attribute')).json().attributes.map((a: { id: string }) => a.id)).toEqual([
      id,
    ]);
    expect((await inject('DELETE', '/node')).statusCode).toBe(204);
    expect(loadAttributes(agent.ctx.store)).toEqual([]);
    expect((await inject('GET', '/attribute')).statusCode).toBe(424);
  });

  it('answers 405 with Allow for other methods', async () => {
    await registerNode(agent, fake);
    const res = await inject('DELETE', '/attribute');
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toContain('POST');
    expect((await inject('POST', '/attribute/x', userInput)).statusCode).toBe(405);
  });
});
