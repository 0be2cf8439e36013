/**
 * A workload start is slow (an image pull can take minutes): it must never hold the write lock
 * that local API writes wait on. The engine is replaced at its boundary by one whose pull hangs
 * until the test lets it go.
 */
import type Docker from 'dockerode';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newAgreement, saveAgreement } from '../agreements/store.ts';
import {
  type AgentUnderTest,
  registerNode,
  startAgentUnderTest,
  stopAgentUnderTest,
} from '../test-support/harness.ts';
import { WorkloadRunner } from '../workloads/runner.ts';
import type { NodeProtocol } from './node-protocol.ts';
import { startWorkload } from './workload.ts';

let t: AgentUnderTest;
let slow: ReturnType<typeof slowEngine>;
beforeEach(async () => {
  t = await startAgentUnderTest();
  slow = slowEngine();
});
afterEach(async () => {
  slow.release();
  await stopAgentUnderTest(t);
});

/** A write that waits for the lock would hang (the pull answers only when released): it fails after `ms` instead. */
const within = <T>(ms: number, work: Promise<T>): Promise<T> =>
  Promise.race([
    work,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)),
  ]);

/** An engine with nothing on it whose image pull answers only when `release` is called. */
function slowEngine() {
  let release = () => {};
  const pulled = new Promise<void>((resolve) => {
    release = resolve;
  });
  let pullStarted = false;
  const engine = {
    listContainers: async () => [],
    listNetworks: async () => [],
    pull: async () => {
      pullStarted = true;
      await pulled;
      throw new Error('registry unreachable');
    },
    getImage: () => ({
      inspect: async () => {
        throw Object.assign(new Error('no such image'), { statusCode: 404 });
      },
    }),
  };
  return { engine: engine as unknown as Docker, release, started: () => pullStarted };
}

const deployment = JSON.stringify({ services: { web: { image: 'registry.invalid/slow:1' } } });
const proposal = JSON.stringify({
  tsandcs: JSON.stringify({ header: { name: 'slow', version: '2.0' }, workloads: [{ deployment }] }),
});

describe('slow work and the write lock', () => {
  it('answers local API writes at once while an image pull is under way', async () => {
    const { agent } = t;
    await registerNode(agent, t.fake);
    const { parts } = agent.ctx.protocol as NodeProtocol;
    parts.runner = new WorkloadRunner(slow.engine, parts.secretFiles, () => {});
    saveAgreement(
      agent.ctx.store,
      newAgreement('ag-slow', {
        agreement_creation_time: 1,
        agreement_accepted_time: 1,
        proposal,
        workload_to_run: { url: 'svc', org: 'org1', version: '1.0.0', arch: 'amd64' },
      }),
    );
    let settled = false;
    const start = startWorkload(parts, 'ag-slow').finally(() => {
      settled = true;
    });
    await expect.poll(slow.started).toBe(true);

    const policy = await within(
      20_000,
      agent.app.inject({
        method: 'PUT',
        url: '/node/policy',
        payload: { properties: [{ name: 'purpose', value: 'slow-test' }], constraints: [] },
      }),
    );
    const attribute = await within(
      20_000,
      agent.app.inject({
        method: 'POST',
        url: '/attribute',
        payload: { type: 'UserInputAttributes', label: 'x', mappings: { VAR: 'v' } },
      }),
    );
    expect(policy.statusCode).toBe(201);
    expect(attribute.statusCode).toBe(201);
    // The writes went through while the pull still hung: the start never held the lock.
    expect(settled).toBe(false);
    expect(t.fake.policies.get('org1/node1')).toMatchObject({
      properties: expect.arrayContaining([{ name: 'purpose', value: 'slow-test' }]),
    });

    slow.release();
    await start;
  });
});
