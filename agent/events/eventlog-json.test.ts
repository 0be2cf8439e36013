import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Agent } from '../agent.ts';
import type { FakeExchange } from '../test-support/fake-exchange.ts';
import { startAgentUnderTest, stopAgentUnderTest, type tempDir } from '../test-support/harness.ts';
import { eventLogJson } from './eventlog-json.ts';
import { parseSelectors } from './selectors.ts';

let fake: FakeExchange;
let dir: ReturnType<typeof tempDir>;
let agent: Agent;

beforeEach(async () => {
  ({ fake, dir, agent } = await startAgentUnderTest());
});
afterEach(() => stopAgentUnderTest({ fake, dir, agent }));

const source = { node_id: 'n1', node_org: 'o1', pattern: '', config_state: 'configured' };
const addEvents = (count: number) =>
  agent.ctx.store.transaction(() => {
    for (let i = 1; i <= count; i++) {
      agent.ctx.events.node('info', 'update_node_userinput', `user input change ${i}`, source);
    }
  });

describe('eventLogJson', () => {
  it('answers a short result as one string and a long one as a stream, both the full JSON array', async () => {
    addEvents(7);
    const store = agent.ctx.store;
    const all = parseSelectors('', 0);
    expect(eventLogJson(store, 7, all, 3)).toBe('[]');
    const short = eventLogJson(store, 4, all, 3);
    expect(typeof short).toBe('string');
    expect(JSON.parse(short as string)).toEqual(store.events(4));

    const long = eventLogJson(store, 0, all, 3);
    expect(long).toBeInstanceOf(Readable);
    const text = (await (long as Readable).toArray()).join('');
    expect(JSON.parse(text)).toEqual(store.events(0));
  });

  it('GET /eventlog streams a log longer than a page, oldest first, as JSON', async () => {
    addEvents(1_234);
    const res = await agent.app.inject({ method: 'GET', url: '/eventlog/all' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const events = res.json() as { record_id: string; message: string }[];
    expect(events).toHaveLength(1_234);
    expect(events.map((e) => Number(e.record_id))).toEqual(Array.from({ length: 1_234 }, (_, i) => i + 1));
    expect(events[1_233]?.message).toBe('user input change 1234');

    const selected = await agent.app.inject({ method: 'GET', url: '/eventlog/all?message=~change%20123' });
    expect(selected.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(selected.json().map((e: { record_id: string }) => e.record_id)).toEqual([
      '123',
      '1230',
      '1231',
      '1232',
      '1233',
      '1234',
    ]);
  });
});
