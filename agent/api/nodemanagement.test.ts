import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Agent } from '../agent.ts';
import { pollExchange } from '../sync/poll.ts';
import { pushPending } from '../sync/write-through.ts';
import type { FakeExchange } from '../test-support/fake-exchange.ts';
import {
  NODE,
  newAgent,
  nodeKey,
  registerNode,
  startAgentUnderTest,
  stopAgentUnderTest,
  type tempDir,
} from '../test-support/harness.ts';

let fake: FakeExchange;
let dir: ReturnType<typeof tempDir>;
let agent: Agent;
const NOW = Date.parse('2031-03-04T05:06:07.890Z');

beforeEach(async () => {
  ({ fake, dir, agent } = await startAgentUnderTest());
  agent.ctx.now = () => NOW;
});
afterEach(() => stopAgentUnderTest({ fake, dir, agent }));

const inject = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: unknown) =>
  agent.app.inject({
    method,
    url,
    // As hzn sends them: a body is application/json (api/request-guard.ts).
    ...(payload === undefined
      ? {}
      : { payload: payload as object, headers: { 'content-type': 'application/json' } }),
  });
const KEY = `${NODE.org}/upgrade1`;
const exchangeStatus = (key = KEY) =>
  fake.managementStatuses.get(nodeKey)?.get(key)?.agentUpgradePolicyStatus as
    | Record<string, unknown>
    | undefined;
const local = async (key = KEY) =>
  (await inject('GET', '/nodemanagement/status')).json()[key]?.agentUpgradePolicyStatus;
const putStatus = (body: unknown, name = 'upgrade1') => inject('PUT', `/nodemanagement/status/${name}`, body);
const upgrade = (fields: Record<string, unknown>) => ({ agentUpgradePolicyStatus: fields });

/** Registers the node, creates `upgrade1` in the Exchange (as a user would) and polls once. */
async function withStatus(extra: Record<string, unknown> = {}) {
  await registerNode(agent, fake);
  fake.putManagementStatus(nodeKey, 'upgrade1', { scheduledTime: '2031-01-02T00:00:00Z', ...extra });
  await pollExchange(agent.ctx);
}

describe('/nodemanagement before registration', () => {
  it('status needs a node (404 management); nextjob and reset do not', async () => {
    const status = await inject('GET', '/nodemanagement/status');
    expect(status.statusCode).toBe(404);
    expect(status.json().input).toBe('management');
    expect((await inject('GET', '/nodemanagement/status/upgrade1')).statusCode).toBe(404);
    expect((await inject('GET', '/nodemanagement/nextjob')).json()).toEqual({});
    const reset = await inject('PUT', '/nodemanagement/reset');
    expect(reset.statusCode).toBe(201);
    expect(reset.json()).toBe('No nmp status found');
    expect((await putStatus(upgrade({ status: 'downloaded' }))).statusCode).toBe(404);
  });
});

describe('/nodemanagement/status', () => {
  it('picks up a status created in the Exchange on the poll, keyed <org>/<nmp>', async () => {
    await withStatus();
    const all = await inject('GET', '/nodemanagement/status');
    expect(all.statusCode).toBe(200);
    expect(all.json()).toEqual({
      [KEY]: {
        agentUpgradePolicyStatus: {
          scheduledTime: '2031-01-02T00:00:00Z',
          upgradedVersions: { softwareVersion: '', certVersion: '', configVersion: '' },
          status: 'waiting',
          workingDirectory: join(dir.path, 'nmp'),
        },
        agentUpgradeInternal: {
          allowDowngrade: false,
          manifest: '',
          scheduledUnixTime: '2031-01-02T00:00:00Z',
          latestMap: { softwareLatest: false, configLatest: false, certLatest: false },
          downloadAttempts: 0,
        },
      },
    });
    for (const path of ['upgrade1', `${NODE.org}/upgrade1`, `${NODE.org}%2Fupgrade1`]) {
      const one = await inject('GET', `/nodemanagement/status/${path}`);
      expect(one.statusCode, path).toBe(200);
      expect(Object.keys(one.json()), path).toEqual([KEY]);
    }
    const unknown = await inject('GET', '/nodemanagement/status/other');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({
      error: `The nmp ${NODE.org}/other cannot be found`,
      input: 'management',
    });
    const events = (await inject('GET', '/eventlog?event_code=node_management_status_received')).json();
    expect(events.map((e: { message: string }) => e.message)).toEqual([
      `Node management status from the Exchange: ${KEY}: waiting.`,
    ]);
  });

  it('applies the rules for startTime, endTime and errorMessage, and writes each change back', async () => {
    await withStatus();
    const res = await putStatus(upgrade({ status: 'downloaded' }));
    expect(res.statusCode).toBe(201);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.json()).toBe(`Updated status for NMP ${KEY}.`);
    expect(exchangeStatus()).toMatchObject({ status: 'downloaded', startTime: '' });

    // initiated: startTime set (the given one), errorMessage only with a status change.
    await putStatus(
      upgrade({ status: 'initiated', startTime: '2031-03-04T00:00:00Z', errorMessage: 'warming up' }),
    );
    expect(await local()).toMatchObject({
      status: 'initiated',
      startTime: '2031-03-04T00:00:00Z',
      errorMessage: 'warming up',
    });
    // Same status: nothing changes (not the message, not the time).
    await putStatus(
      upgrade({ status: 'initiated', startTime: '2031-03-05T00:00:00Z', errorMessage: 'ignored' }),
    );
    // No status: nothing changes.
    await putStatus(upgrade({ errorMessage: 'ignored too' }));
    await putStatus({});
    expect(await local()).toMatchObject({ startTime: '2031-03-04T00:00:00Z', errorMessage: 'warming up' });

    // failed, then initiated again: startTime is already set, so it stays.
    await putStatus(upgrade({ status: 'failed', errorMessage: 'boom' }));
    await putStatus(upgrade({ status: 'initiated' }));
    const again = await local();
    expect(again.startTime).toBe('2031-03-04T00:00:00Z');
    expect(again.errorMessage).toBeUndefined();

    // successful: endTime = now when none is given.
    await putStatus(upgrade({ status: 'successful' }));
    expect((await local()).endTime).toBe('2031-03-04T05:06:07Z');
    expect(exchangeStatus()).toMatchObject({
      status: 'successful',
      startTime: '2031-03-04T00:00:00Z',
      endTime: '2031-03-04T05:06:07Z',
      errorMessage: '',
    });
    expect(exchangeStatus()).not.toHaveProperty('workingDirectory');

    // Back to waiting clears both times.
    await putStatus(upgrade({ status: 'waiting' }), `${NODE.org}/upgrade1`);
    const waiting = await local();
    expect(waiting.startTime).toBeUndefined();
    expect(waiting.endTime).toBeUndefined();
    expect(exchangeStatus()).toMatchObject({ status: 'waiting', startTime: '', endTime: '' });

    const messages = (await inject('GET', '/eventlog?event_code=node_management_status_update_complete'))
      .json()
      .map((e: { message: string }) => e.message);
    expect(messages).toEqual([
      `Node management status for ${KEY} changed to downloaded.`,
      `Node management status for ${KEY} changed to initiated, ErrorMessage: warming up.`,
      `Node management status for ${KEY} changed to failed, ErrorMessage: boom.`,
      `Node management status for ${KEY} changed to initiated.`,
      `Node management status for ${KEY} changed to successful.`,
      `Node management status for ${KEY} changed to waiting.`,
    ]);
  });

  it('answers 400 for an unknown status value or a body that is not an object, 404 for an unknown nmp', async () => {
    await withStatus();
    const bad = await putStatus(upgrade({ status: 'bogus' }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().input).toBe('agentUpgradePolicyStatus.status');
    expect((await putStatus(upgrade({ status: 5 }))).statusCode).toBe(400);
    expect((await putStatus('[1,2]')).statusCode).toBe(400);
    const unknown = await putStatus(upgrade({ status: 'downloaded' }), 'nope');
    expect(unknown.statusCode).toBe(404);
    expect((await local()).status).toBe('waiting');
  });

  it('resets one or all statuses to waiting', async () => {
    await withStatus({ status: 'failed', startTime: '2031-01-02T00:00:01Z', errorMessage: 'x' });
    fake.putManagementStatus(nodeKey, 'upgrade2', {
      scheduledTime: '2031-01-03T00:00:00Z',
      status: 'successful',
    });
    fake.putManagementStatus(nodeKey, 'upgrade3', {
      scheduledTime: '2031-01-04T00:00:00Z',
      status: 'waiting',
    });
    await pollExchange(agent.ctx);
    const one = await inject('PUT', '/nodemanagement/reset/upgrade1');
    expect(one.statusCode).toBe(201);
    expect(one.json()).toBe(`Updated status for NMP ${KEY}.`);
    expect(await local()).toMatchObject({ status: 'waiting' });
    expect((await local()).startTime).toBeUndefined();
    expect((await local()).errorMessage).toBeUndefined();
    expect(exchangeStatus()).toMatchObject({ status: 'waiting', startTime: '', errorMessage: '' });
    const all = await inject('PUT', '/nodemanagement/reset');
    expect(all.json()).toBe(`Updated the status for NMPs ${KEY},${NODE.org}/upgrade2,${NODE.org}/upgrade3.`);
    expect(exchangeStatus(`${NODE.org}/upgrade2`)).toMatchObject({ status: 'waiting' });
    expect((await inject('PUT', '/nodemanagement/reset/nope')).statusCode).toBe(404);
  });

  it('keeps a change made while the Exchange is down, writes it back later, and the poll does not undo it', async () => {
    await withStatus();
    await fake.stop();
    expect((await putStatus(upgrade({ status: 'downloaded' }))).statusCode).toBe(201);
    expect(agent.ctx.store.isPending('management')).toBe(true);
    await fake.restart();
    // An Exchange-side change arriving before the write-back loses to the local one.
    fake.putManagementStatus(nodeKey, 'upgrade1', {
      scheduledTime: '2031-05-05T00:00:00Z',
      status: 'waiting',
    });
    await pollExchange(agent.ctx);
    expect((await local()).status).toBe('downloaded');
    await pushPending(agent.ctx, 'management');
    expect(agent.ctx.store.isPending('management')).toBe(false);
    expect(exchangeStatus()).toMatchObject({ status: 'downloaded' });
    await pollExchange(agent.ctx);
    expect((await local()).status).toBe('downloaded');
  });

  it('follows changes and deletions made in the Exchange', async () => {
    await withStatus();
    fake.putManagementStatus(nodeKey, 'upgrade1', {
      scheduledTime: '2031-06-01T00:00:00Z',
      status: 'waiting',
    });
    await pollExchange(agent.ctx);
    expect(await local()).toMatchObject({
      scheduledTime: '2031-06-01T00:00:00Z',
      workingDirectory: join(dir.path, 'nmp'),
    });
    fake.managementStatuses.get(nodeKey)?.delete(KEY);
    // The Exchange records the deletion in its change feed, which the poll follows.
    fake.recordChange(nodeKey, 'nodemgmtpolstatus');
    await pollExchange(agent.ctx);
    expect((await inject('GET', '/nodemanagement/status')).json()).toEqual({});
    const codes = (await inject('GET', '/eventlog?message=~management status'))
      .json()
      .map((e: { event_code: string }) => e.event_code);
    expect(codes).toEqual([
      'node_management_status_received',
      'node_management_status_received',
      'node_management_status_removed',
    ]);
  });

  it('keeps statuses across a restart and forgets them at unregistration', async () => {
    await withStatus();
    await putStatus(upgrade({ status: 'downloaded' }));
    await agent.stop();
    agent = await newAgent(fake.url, dir.path);
    expect((await local()).status).toBe('downloaded');
    expect((await inject('POST', '/nodemanagement/status')).statusCode).toBe(405);
    await agent.app.inject({ method: 'DELETE', url: '/node' });
    await registerNode(agent, fake);
    expect((await inject('GET', '/nodemanagement/status')).json()).toEqual({});
  });
});

describe('/nodemanagement/nextjob', () => {
  beforeEach(async () => {
    await withStatus({ scheduledTime: '2031-01-02T00:00:00Z', status: 'waiting' });
    fake.putManagementStatus(nodeKey, 'early', {
      scheduledTime: '2031-01-01T00:00:00Z',
      status: 'downloaded',
    });
    fake.putManagementStatus(nodeKey, 'unscheduled', { scheduledTime: '', status: 'waiting' });
    await pollExchange(agent.ctx);
  });
  const next = async (query = '') =>
    Object.keys((await inject('GET', `/nodemanagement/nextjob${query}`)).json());

  it('picks the earliest scheduled job among all, downloaded (ready=true) or waiting (ready=false)', async () => {
    expect(await next()).toEqual([`${NODE.org}/early`]);
    expect(await next('?type=agentUpgrade')).toEqual([`${NODE.org}/early`]);
    expect(await next('?ready=true')).toEqual([`${NODE.org}/early`]);
    expect(await next('?ready=false&type=agentUpgrade')).toEqual([KEY]);
    await putStatus(upgrade({ status: 'initiated' }), 'early');
    expect(await next('?ready=true')).toEqual([]);
  });

  it('answers 400 for a bad type or ready (upstream: 500)', async () => {
    const type = await inject('GET', '/nodemanagement/nextjob?type=agentDowngrade');
    expect(type.statusCode).toBe(400);
    expect(type.json()).toEqual({ error: 'jobType currently only supports "agentUpgrade".', input: 'type' });
    const ready = await inject('GET', '/nodemanagement/nextjob?ready=maybe');
    expect(ready.statusCode).toBe(400);
    expect(ready.json()).toEqual({ error: 'invalid value for "ready" argument.', input: 'ready' });
    expect((await inject('GET', '/nodemanagement/nextjob?ready=true&ready=false')).statusCode).toBe(400);
  });
});
