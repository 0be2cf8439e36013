import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Agent } from '../agent.ts';
import { loadAgreements, newAgreement, saveAgreement } from '../agreements/store.ts';
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
const NOW = 1_800_000_000_000;

beforeEach(async () => {
  ({ fake, dir, agent } = await startAgentUnderTest());
  // Pin the clock: termination times are asserted.
  agent.ctx.now = () => NOW;
});
afterEach(() => stopAgentUnderTest({ fake, dir, agent }));

const inject = (method: 'GET' | 'DELETE', url: string) => agent.app.inject({ method, url });
const workload = (url: string) => ({ url, org: 'org1', version: '1.0.0', arch: 'amd64' });

function seed() {
  const store = agent.ctx.store;
  saveAgreement(
    store,
    newAgreement('ag-late', { agreement_creation_time: 300, workload_to_run: workload('svc.b') }),
  );
  saveAgreement(
    store,
    newAgreement('ag-early', { agreement_creation_time: 100, workload_to_run: workload('svc.a') }),
  );
  saveAgreement(
    store,
    newAgreement('ag-old', {
      agreement_creation_time: 50,
      archived: true,
      agreement_terminated_time: 90,
      terminated_reason: 201,
      terminated_description: 'agbot requested',
    }),
  );
  // Termination started but not archived yet: counts as archived.
  saveAgreement(
    store,
    newAgreement('ag-ending', { agreement_creation_time: 60, agreement_terminated_time: 80 }),
  );
}

const ids = (list: { current_agreement_id: string }[]) => list.map((a) => a.current_agreement_id);

describe('/agreement', () => {
  it('lists nothing at first (no registration needed)', async () => {
    const res = await inject('GET', '/agreement');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ agreements: { active: [], archived: [] } });
  });

  it('sorts active agreements by creation time and archived ones by termination time', async () => {
    seed();
    const { active, archived } = (await inject('GET', '/agreement')).json().agreements;
    expect(ids(active)).toEqual(['ag-early', 'ag-late']);
    expect(ids(archived)).toEqual(['ag-ending', 'ag-old']);
    expect(active[0]).toMatchObject({
      current_agreement_id: 'ag-early',
      archived: false,
      agreement_protocol: 'Basic',
      workload_to_run: workload('svc.a'),
      dependent_services: [],
      terminated_reason: 0,
    });
  });

  it('DELETE archives the agreement with the reason and time (200, no body) and logs it', async () => {
    await registerNode(agent, fake);
    seed();
    const res = await inject('DELETE', '/agreement/ag-early');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('');
    // Termination starts at once (no longer active) and finishes in the background.
    const now = (await inject('GET', '/agreement')).json().agreements;
    expect(ids(now.active)).toEqual(['ag-late']);
    expect(
      now.archived.find((a: { current_agreement_id: string }) => a.current_agreement_id === 'ag-early'),
    ).toMatchObject({ agreement_terminated_time: NOW / 1000, terminated_reason: 105 });
    await vi.waitFor(
      async () => {
        const { archived } = (await inject('GET', '/agreement')).json().agreements;
        expect(ids(archived)).toEqual(['ag-ending', 'ag-old', 'ag-early']);
        expect(archived[2]).toMatchObject({
          archived: true,
          agreement_terminated_time: NOW / 1000,
          workload_terminated_time: NOW / 1000,
          terminated_reason: 105,
          terminated_description: 'user requested',
        });
      },
      { timeout: 30_000, interval: 50 },
    );
    const events = (await agent.app.inject({ method: 'GET', url: '/eventlog?source_type=agreement' })).json();
    const codes = events.map((e: { event_code: string }) => e.event_code);
    expect(codes.slice(0, 2)).toEqual(['cancel_agreement', 'agreement_canceled']);
    expect(events[0]).toMatchObject({
      message: 'Start terminating agreement for svc.a. Termination reason: user requested',
      event_source: {
        agreement_id: 'ag-early',
        workload_to_run: workload('svc.a'),
        agreement_protocol: 'Basic',
      },
    });
  });

  it('DELETE answers 404 for an unknown or already archived agreement', async () => {
    seed();
    for (const id of ['nope', 'ag-old', 'ag-ending']) {
      const res = await inject('DELETE', `/agreement/${id}`);
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toEqual({ error: 'no agreements in local database', input: 'agreement' });
    }
    expect(
      loadAgreements(agent.ctx.store).find((a) => a.current_agreement_id === 'ag-old')?.terminated_reason,
    ).toBe(201);
  });

  it('masks secrets carried in a proposal', async () => {
    const tsandcs = JSON.stringify({
      secretDetails: [{ serviceUrl: 's', secrets: [{ db_password: 'c2VjcmV0' }] }],
    });
    saveAgreement(
      agent.ctx.store,
      newAgreement('ag-secret', { proposal: JSON.stringify({ tsandcs, other: 'kept' }) }),
    );
    const body = (await inject('GET', '/agreement')).body;
    expect(body).not.toContain('c2VjcmV0');
    const proposal = JSON.parse((await inject('GET', '/agreement')).json().agreements.active[0].proposal);
    expect(proposal.other).toBe('kept');
    expect(JSON.parse(proposal.tsandcs).secretDetails[0].secrets).toEqual([{ db_password: '********' }]);
  });

  it('unregistration ends the active agreements (node shutdown); deepClean forgets them', async () => {
    await registerNode(agent, fake);
    seed();
    expect((await inject('DELETE', '/node')).statusCode).toBe(204);
    const { active, archived } = (await inject('GET', '/agreement')).json().agreements;
    expect(active).toEqual([]);
    expect(archived.filter((a: { terminated_reason: number }) => a.terminated_reason === 116)).toHaveLength(
      2,
    );
    await registerNode(agent, fake);
    expect((await inject('DELETE', '/node?deepClean=true')).statusCode).toBe(204);
    expect((await inject('GET', '/agreement')).json()).toEqual({ agreements: { active: [], archived: [] } });
  });

  it('answers 405 for other methods on known paths', async () => {
    expect((await inject('DELETE', '/agreement')).statusCode).toBe(405);
    expect((await inject('GET', '/agreement/x')).statusCode).toBe(405);
  });
});
