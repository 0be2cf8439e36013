import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Agent } from '../agent.ts';
import type { FakeExchange } from '../test-support/fake-exchange.ts';
import {
  registerNode,
  startAgentUnderTest,
  stopAgentUnderTest,
  type tempDir,
} from '../test-support/harness.ts';

let fake: FakeExchange;
let dir: ReturnType<typeof tempDir>;
let agent: Agent;
const NOW = Date.now();

beforeEach(async () => {
  ({ fake, dir, agent } = await startAgentUnderTest());
  const { events } = agent.ctx;
  const source = { node_id: 'n1', node_org: 'o1', pattern: '', config_state: 'configured' };
  const at = (hoursAgo: number) => Math.floor(NOW / 1000) - hoursAgo * 3600;
  agent.ctx.store.addEvent({
    timestamp: at(5),
    severity: 'info',
    message: 'proposal received from agbot',
    event_code: 'received_proposal',
    source_type: 'agreement',
    event_source: {
      agreement_id: 'a1',
      workload_to_run: { url: 'svc', org: 'o', version: '1.0.0' },
      dependent_services: [{ url: 'dep1' }],
      archived: false,
    },
  });
  agent.ctx.store.addEvent({
    timestamp: at(1),
    severity: 'error',
    message: 'image load failed',
    event_code: 'error_image_load',
    source_type: 'service',
    event_source: { service_url: 'svc', version: '007', agreement_id: ['a1', 'a2'] },
  });
  events.node('info', 'update_node_policy', 'New node policy: {}', source);
  // The event log reads the clock for time_since.
  agent.ctx.now = () => NOW;
});
afterEach(() => stopAgentUnderTest({ fake, dir, agent }));

const ids = async (query: string, all = true) => {
  const res = await agent.app.inject({ method: 'GET', url: `/eventlog${all ? '/all' : ''}${query}` });
  expect(res.statusCode).toBe(200);
  return (res.json() as { record_id: string }[]).map((e) => e.record_id);
};

describe('GET /eventlog selectors', () => {
  it("lists every event oldest first with upstream's event fields", async () => {
    const res = await agent.app.inject({ method: 'GET', url: '/eventlog' });
    const events = res.json();
    expect(events.map((e: { record_id: string }) => e.record_id)).toEqual(['1', '2', '3']);
    expect(Object.keys(events[2]).sort()).toEqual([
      'event_code',
      'event_source',
      'message',
      'record_id',
      'severity',
      'source_type',
      'timestamp',
    ]);
  });

  it.each([
    ['?source_type=node', ['3']],
    ['?severity=error', ['2']],
    ['?message=~proposal', ['1']],
    ['?message=~proposal&message=~agbot', ['1']],
    ['?message=~proposal&message=~nothing', []],
    ['?source_type=agreement&severity=error', []],
    ['?agreement_id=a2', ['2']],
    ['?agreement_id=a1', ['1', '2']],
    ['?workload_to_run.url=svc', ['1']],
    ['?archived=false', ['1']],
    ['?version=7', ['2']],
    ['?record_id=2', ['2']],
    ['?record_id=>1', ['2', '3']],
    ['?time_since=<2', ['2', '3']],
    ['?event_code=update_node_policy&node_id=n1', ['3']],
    ['?unknown_attribute=x', []],
    ['?message=~', []],
  ])('%s → %j', async (query, expected) => {
    expect(await ids(query)).toEqual(expected);
  });

  it('rejects a malformed selector with 400 on selection', async () => {
    for (const query of ['?=x', '?time_since=soon', '?a..b=1']) {
      const res = await agent.app.inject({ method: 'GET', url: `/eventlog${query}` });
      expect(res.statusCode).toBe(400);
      expect(res.json().input).toBe('selection');
    }
  });

  it('/eventlog shows the current registration only, /eventlog/all everything', async () => {
    agent.ctx.now = Date.now;
    await registerNode(agent, fake);
    await agent.app.inject({ method: 'DELETE', url: '/node' });
    await registerNode(agent, fake);
    const current = await agent.app.inject({ method: 'GET', url: '/eventlog?source_type=node' });
    expect(current.json().map((e: { event_code: string }) => e.event_code)).toEqual([
      'start_node_configuration_registration',
    ]);
    const all = await ids('?event_code=start_node_configuration_registration');
    expect(all).toHaveLength(2);
  });
});
