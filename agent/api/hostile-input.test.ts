import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_CONSTRAINT_DEPTH, MAX_CONSTRAINT_LENGTH } from '../../lib/policy/constraints.ts';
import type { Agent } from '../agent.ts';
import { newAgreement, saveAgreement } from '../agreements/store.ts';
import { pollExchange } from '../sync/poll.ts';
import type { FakeExchange } from '../test-support/fake-exchange.ts';
import {
  nodeKey,
  registerNode,
  startAgentUnderTest,
  stopAgentUnderTest,
  type tempDir,
} from '../test-support/harness.ts';
import { PROTOTYPE_NAMES } from '../test-support/hostile.ts';

/**
 * Issue 8, classes 1 and 3 in the agent: prototype names as keys and names in bodies, queries and
 * paths are plain data (never a 500, never an inherited value); inputs that are parsed or matched
 * are bounded and answer a 400 `{"error","input"}` beyond the bound.
 */
let fake: FakeExchange;
let dir: ReturnType<typeof tempDir>;
let agent: Agent;

beforeEach(async () => {
  ({ fake, dir, agent } = await startAgentUnderTest());
  await registerNode(agent, fake);
});
afterEach(() => stopAgentUnderTest({ fake, dir, agent }));

const inject = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
  agent.app.inject({ method, url, ...(payload === undefined ? {} : { payload: payload as object }) });
/** A body as raw JSON text (so `__proto__` arrives as a key, as a client would send it). */
const raw = (method: 'POST' | 'PUT' | 'PATCH', url: string, text: string) =>
  agent.app.inject({ method, url, payload: text, headers: { 'content-type': 'application/json' } });

describe('prototype names as data (class 1)', () => {
  it('user input names that are prototype names are stored and shown as given', async () => {
    const inputs = PROTOTYPE_NAMES.map((name, i) => ({ name, value: i }));
    const text = JSON.stringify([{ serviceOrgid: 'o', serviceUrl: 's', inputs }]);
    const res = await raw('POST', '/node/userinput', text);
    expect(res.statusCode).toBe(201);
    const shown = (await inject('GET', '/node/userinput')).json()[0].inputs;
    expect(shown).toEqual(inputs);
    expect(fake.nodes.get(nodeKey)?.userInput).toEqual([expect.objectContaining({ inputs })]);
  });

  it('a __proto__ key is refused (400) in a JSON body (other content types: 415 before parsing); other prototype names are data', async () => {
    for (const key of ['__proto__', '\\u005f_proto__']) {
      for (const type of ['application/json', 'application/json; charset=utf-8']) {
        const res = await agent.app.inject({
          method: 'POST',
          url: '/attribute',
          payload: `{"type":"UserInputAttributes","label":"l","mappings":{"${key}":{"polluted":"yes"}}}`,
          headers: { 'content-type': type },
        });
        expect(res.statusCode, `${key} ${type}`).toBe(400);
        expect(res.json()).toEqual({
          error: 'Input body couldn\'t be deserialized: "__proto__" is not accepted as a key',
          input: 'body',
        });
      }
    }
    for (const type of ['text/plain', 'application/x-anything']) {
      const res = await agent.app.inject({
        method: 'POST',
        url: '/attribute',
        payload: '{"type":"UserInputAttributes","label":"l","mappings":{"__proto__":{"polluted":"yes"}}}',
        headers: { 'content-type': type },
      });
      expect(res.statusCode, type).toBe(415);
    }
    const text =
      '{"type":"UserInputAttributes","label":"l","mappings":{"constructor":"c","toString":"t","hasOwnProperty":"h"}}';
    expect((await raw('POST', '/attribute', text)).statusCode).toBe(201);
    const [attribute] = (await inject('GET', '/attribute')).json().attributes;
    expect(attribute.mappings).toEqual({ constructor: 'c', toString: 't', hasOwnProperty: 'h' });
    expect(({} as { polluted?: string }).polluted).toBeUndefined();
  });

  it('policy property names and types that are prototype names', async () => {
    const properties = PROTOTYPE_NAMES.map((name) => ({ name, value: name }));
    expect((await inject('POST', '/node/policy', { properties })).statusCode).toBe(201);
    const names = (await inject('GET', '/node/policy'))
      .json()
      .properties.map((p: { name: string }) => p.name);
    expect(names).toEqual(expect.arrayContaining([...PROTOTYPE_NAMES]));
    for (const type of PROTOTYPE_NAMES) {
      const res = await inject('POST', '/node/policy', { properties: [{ name: 'p', value: 'v', type }] });
      expect(res.statusCode, type).toBe(400);
      expect(res.json().input).toBe('properties[0].value');
    }
  });

  it('event-log selectors naming prototype names select nothing and never fail', async () => {
    for (const name of PROTOTYPE_NAMES) {
      for (const query of [`${name}=x`, `${name}.${name}=~a`, `event_source.${name}=>1`, `message=${name}`]) {
        const res = await inject('GET', `/eventlog/all?${query}`);
        expect(res.statusCode, query).toBe(200);
        expect(res.json(), query).toEqual([]);
      }
    }
  });

  it('path values that are prototype names are unknown names (404), never inherited entries', async () => {
    for (const name of PROTOTYPE_NAMES) {
      for (const url of [
        `/nodemanagement/status/${name}`,
        `/nodemanagement/status/${name}/${name}`,
        `/attribute/${name}`,
        `/trust/${name}.pem`,
      ]) {
        const res = await inject('GET', url);
        expect(res.statusCode === 404 || (url.startsWith('/attribute') && res.statusCode === 200), url).toBe(
          true,
        );
        if (res.statusCode === 200) expect(res.json()).toEqual({ attributes: [] });
      }
      expect((await inject('DELETE', `/agreement/${name}`)).statusCode).toBe(404);
      expect((await inject('PUT', `/nodemanagement/reset/${name}`)).statusCode).toBe(404);
      const status = await inject('PUT', `/nodemanagement/status/${name}`, {
        agentUpgradePolicyStatus: { status: 'downloaded' },
      });
      expect(status.statusCode).toBe(404);
    }
  });

  it('query keys that are prototype names are ignored or refused, never a 500', async () => {
    for (const name of PROTOTYPE_NAMES) {
      expect((await inject('GET', `/trust?${name}=1`)).statusCode).toBe(200);
      expect((await inject('GET', `/nodemanagement/nextjob?${name}=1`)).statusCode).toBe(200);
      const bad = await inject('GET', `/nodemanagement/nextjob?ready=${name}`);
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ error: 'invalid value for "ready" argument.', input: 'ready' });
    }
    const unregister = await inject('DELETE', '/node?block=constructor');
    expect(unregister.statusCode).toBe(400);
    expect(unregister.json()).toEqual({
      error: 'constructor is an incorrect value for block',
      input: 'url.block',
    });
  });

  it('management statuses the Exchange keys by a prototype name stay entries', async () => {
    fake.putManagementStatus(nodeKey, 'upgrade1', { scheduledTime: '2031-01-02T00:00:00Z' });
    // A status keyed `__proto__` (no org part), as a hostile or broken Exchange could send it.
    fake.managementStatuses.get(nodeKey)?.set('__proto__', {
      agentUpgradePolicyStatus: { scheduledTime: '2031-01-01T00:00:00Z', status: 'waiting' },
    });
    await pollExchange(agent.ctx);
    const statuses = (await inject('GET', '/nodemanagement/status')).json();
    expect(Object.keys(statuses).sort()).toEqual(['__proto__', 'org1/upgrade1']);
    expect(Object.getPrototypeOf(statuses)).toBe(Object.prototype);
  });
});

describe('stored records never reach a response (views from allow-lists)', () => {
  it("GET /agreement shows upstream's agreement fields only, secrets masked even under a __proto__ key", async () => {
    const proposal =
      '{"__proto__":{"secretDetails":[{"secrets":[{"pw":"S3CRET"}]}]},"secretDetails":[{"secrets":[{"a":"S4"}]}]}';
    saveAgreement(agent.ctx.store, {
      ...newAgreement('ag1', { proposal }),
      tokenHash: 'stored-only',
      internalNote: 'stored-only',
    });
    const res = await inject('GET', '/agreement');
    expect(res.body).not.toContain('stored-only');
    expect(res.body).not.toContain('S3CRET');
    expect(res.body).not.toContain('S4');
    const [shown] = res.json().agreements.active;
    expect(JSON.parse(shown.proposal)).toEqual({
      ['__proto__']: { secretDetails: [{ secrets: [{ pw: '********' }] }] },
      secretDetails: [{ secrets: [{ a: '********' }] }],
    });
  });

  it('GET /node/configstate, /node/userinput and /node/policy leave out fields the store may hold', async () => {
    const store = agent.ctx.store;
    const node = store.get<Record<string, unknown>>('node') as Record<string, unknown>;
    store.set('node', { ...node, configstate: { state: 'configuring', last_update_time: 1, extra: 'x1' } });
    store.set('node.userInput', [
      {
        serviceOrgid: 'o',
        serviceUrl: 's',
        serviceArch: '',
        serviceVersionRange: '1.0.0',
        inputs: [{ name: 'a', value: 1, extra: 'x2' }],
        extra: 'x3',
      },
    ]);
    const policy = store.get<Record<string, unknown>>('node.policy') as Record<string, unknown>;
    store.set('node.policy', { ...policy, extra: 'x4' });
    for (const url of ['/node', '/node/configstate', '/node/userinput', '/node/policy']) {
      const res = await inject('GET', url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).not.toMatch(/extra|x[1-4]/);
    }
  });
});

describe('bounded parsing and matching (class 3)', () => {
  const policyWith = (constraint: string) => inject('POST', '/node/policy', { constraints: [constraint] });

  it('a constraint nested deeper than the bound answers 400, not a stack overflow', async () => {
    const deep = `${'('.repeat(4000)}a == 1${')'.repeat(4000)}`;
    const res = await policyWith(deep);
    expect(res.statusCode).toBe(400);
    expect(res.json().input).toBe('constraints[0]');
    expect(res.json().error).toContain(`nested deeper than ${MAX_CONSTRAINT_DEPTH}`);
    expect(res.body.length).toBeLessThan(1000); // the expression is not echoed whole
    const fits = `${'('.repeat(MAX_CONSTRAINT_DEPTH)}a == 1${')'.repeat(MAX_CONSTRAINT_DEPTH)}`;
    expect((await policyWith(fits)).statusCode).toBe(201);
  });

  it('a constraint longer than the bound answers 400 naming the bound', async () => {
    const res = await policyWith(`a == "${'x'.repeat(MAX_CONSTRAINT_LENGTH)}"`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: expect.stringContaining(`longer than ${MAX_CONSTRAINT_LENGTH} characters`),
      input: 'constraints[0]',
    });
  });

  it('selectors: too long or too many answer 400 with input "selection"', async () => {
    const long = await inject('GET', `/eventlog?message=~${'a'.repeat(1025)}`);
    expect(long.statusCode).toBe(400);
    expect(long.json()).toEqual({ error: expect.stringContaining('longer than 1024'), input: 'selection' });
    // Found by the fuzz suite: a NUL or quote in an attribute name made SQLite refuse the JSON path (500).
    for (const name of ['a%00b', '%00', 'a%22b']) {
      const res = await inject('GET', `/eventlog/all?${name}=1`);
      expect(res.statusCode, name).toBe(400);
      expect(res.json().input).toBe('selection');
    }
    const many = await inject(
      'GET',
      `/eventlog?${Array.from({ length: 33 }, (_, i) => `a${i}=1`).join('&')}`,
    );
    expect(many.statusCode).toBe(400);
    expect(many.json().input).toBe('selection');
  });

  it('node ids and orgs longer than the Exchange accepts are refused before any Exchange call', async () => {
    const before = fake.requests.length;
    const id = 'n'.repeat(257);
    const res = await inject('PATCH', '/node', { id, token: 't' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: expect.stringContaining('at most 256 characters'),
      input: 'device.id',
    });
    const org = await inject('PATCH', '/node', { id: 'node1', organization: 'o'.repeat(257), token: 't' });
    expect(org.json().input).toBe('device.organization');
    expect(fake.requests.length).toBe(before);
  });

  it('a version range longer than any real one is refused before it is matched', async () => {
    const range = `[${'1.'.repeat(200)}1,INFINITY)`;
    const res = await inject('POST', '/node/userinput', [
      { serviceOrgid: 'o', serviceUrl: 's', serviceVersionRange: range, inputs: [] },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json().input).toBe('node.userinput[0].serviceVersionRange');
  });
});
