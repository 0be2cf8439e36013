/**
 * The node status and surfaced errors the agent writes to the Exchange, with real containers
 * (podman through the Docker Engine API) and the fake Exchange counting the PUTs: a report after a
 * workload starts, after its container exits, after it runs again; nothing while idle (looks go
 * by, no PUT, then a known change makes exactly one); a burst of events makes one write; errors
 * surfaced in anax's shape; a container the engine keeps restarting shown `restarting` (and failing
 * the container check), one that exited once shown up again. Only this file's containers are
 * touched.
 */
import { randomBytes } from 'node:crypto';
import type Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Agent } from '../agent.ts';
import { newAgreement, saveAgreement } from '../agreements/store.ts';
import type { AgentConfig } from '../ground/config.ts';
import { credentials, loadNode } from '../node/record.ts';
import { governAgreements } from '../protocol/governance.ts';
import type { NodeProtocol } from '../protocol/node-protocol.ts';
import { agreementSource, findAgreement } from '../protocol/records.ts';
import { startTermination } from '../protocol/terminate.ts';
import { startWorkload } from '../protocol/workload.ts';
import { busyboxTestImage, reachableEngine } from '../test-support/engine.ts';
import { type FakeExchange, startFakeExchange } from '../test-support/fake-exchange.ts';
import { newAgent, nodeKey, registerNode, tempDir } from '../test-support/harness.ts';
import { containerName } from '../workloads/container-spec.ts';
import type { WorkloadStatus } from './node-status.ts';
import type { StatusReporter } from './reporter.ts';

const docker = await reachableEngine();
const tag = `oestatus${process.pid}`;

interface Running {
  fake: FakeExchange;
  agent: Agent;
  dir: ReturnType<typeof tempDir>;
  reporter: StatusReporter;
  agreements: string[];
}

/**
 * A registered, configured agent whose status worker runs with `config`; its other workers stay
 * off (the test plays the agreement protocol's part: it starts and ends workloads itself).
 */
async function startReporting(config: Partial<AgentConfig>): Promise<Running> {
  const fake = await startFakeExchange();
  const dir = tempDir();
  const agent = await newAgent(fake.url, dir.path, config);
  await registerNode(agent, fake);
  const configured = await agent.app.inject({
    method: 'PUT',
    url: '/node/configstate',
    payload: { state: 'configured' },
  });
  if (configured.statusCode !== 201) throw new Error(`configstate: ${configured.body}`);
  const reporter = agent.ctx.statusReport as StatusReporter;
  reporter.start();
  return { fake, agent, dir, reporter, agreements: [] };
}

const puts = (fake: FakeExchange, what: 'status' | 'errors') =>
  fake.requests.filter((r) => r === `PUT /orgs/org1/nodes/node1/${what}`).length;

const reported = (fake: FakeExchange): WorkloadStatus[] =>
  (fake.statuses.get(nodeKey) as { services: WorkloadStatus[] } | undefined)?.services ?? [];

/** An accepted, finalized agreement for service `name` running `command`; returns its id. */
function agree(run: Running, image: string, name: string, command = ['sleep', '3600']): string {
  const id = randomBytes(32).toString('hex');
  run.agreements.push(id);
  const deployment = JSON.stringify({
    services: { [`${tag}${name}`]: { image, command } },
  });
  saveAgreement(
    run.agent.ctx.store,
    newAgreement(id, {
      name: `status-${id.slice(0, 8)}`,
      agreement_creation_time: 1,
      agreement_accepted_time: 1,
      // Finalized now: a surfaced error of its workload stays until the agreement lasted 90 s.
      agreement_finalized_time: Math.floor(Date.now() / 1000),
      proposal: JSON.stringify({
        tsandcs: JSON.stringify({ header: { name: id, version: '2.0' }, workloads: [{ deployment }] }),
      }),
      workload_to_run: {
        url: `https://example.com/${tag}/${name}`,
        org: 'org1',
        version: '1.0.0',
        arch: 'amd64',
      },
    }),
  );
  return id;
}

async function stopReporting(run: Running): Promise<void> {
  const p = (run.agent.ctx.protocol as NodeProtocol).parts;
  for (const id of run.agreements) {
    startTermination(p, id, 107);
    await p.runner.stop(id).catch(() => undefined);
  }
  await run.agent.stop();
  await run.fake.close();
  run.dir.remove();
}

describe.skipIf(!docker)('the node status, written when what runs changes', () => {
  const engine = docker as Docker;
  let run: Running;
  let image: string;
  let id: string;
  const container = () => engine.getContainer(containerName(id, `${tag}web`));

  beforeAll(async () => {
    image = await busyboxTestImage();
    // Looks every 100 ms: the idle test watches them go by; events are looked at 50 ms later.
    run = await startReporting({ statusCheckMs: 100, statusCoalesceMs: 50 });
  }, 240_000);
  afterAll(async () => {
    if (run) await stopReporting(run);
  });

  it('reports the workload once it started, in upstream`s shape', async () => {
    id = agree(run, image, 'web');
    await startWorkload((run.agent.ctx.protocol as NodeProtocol).parts, id);
    expect(findAgreement(run.agent.ctx.store, id)?.agreement_execution_start_time).toBeGreaterThan(0);
    await expect.poll(() => reported(run.fake)[0]?.containerStatus[0]?.state).toBe('running');
    const [service] = reported(run.fake);
    expect(service).toEqual({
      agreementId: id,
      serviceUrl: `https://example.com/${tag}/web`,
      orgid: 'org1',
      version: '1.0.0',
      arch: 'amd64',
      containerStatus: [
        {
          name: `/${id}-${tag}web`,
          // The engine's own spelling of the image (podman adds the registry).
          image: expect.stringContaining(image),
          created: expect.any(Number),
          state: 'running',
        },
      ],
      configState: 'active',
    });
    expect(run.fake.statuses.get(nodeKey)).not.toHaveProperty('connectivity');
  });

  it('writes nothing while nothing changes: looks go by without a PUT; a change is written', async () => {
    const writes = puts(run.fake, 'status');
    const looks = run.reporter.counts.looks;
    await expect.poll(() => run.reporter.counts.looks).toBeGreaterThanOrEqual(looks + 5);
    expect(puts(run.fake, 'status')).toBe(writes);
    await container().stop({ t: 0 });
    await expect.poll(() => reported(run.fake)[0]?.containerStatus[0]?.state).toBe('exited');
    // Each write was a change (the engine may show `stopping` on the way), and looks after the
    // last see the same: no more writes.
    const changed = puts(run.fake, 'status');
    expect(changed).toBeGreaterThan(writes);
    const after = run.reporter.counts.looks;
    await expect.poll(() => run.reporter.counts.looks).toBeGreaterThanOrEqual(after + 3);
    expect(puts(run.fake, 'status')).toBe(changed);
  });

  it('reports the container running again after it restarted', async () => {
    const writes = puts(run.fake, 'status');
    const created = reported(run.fake)[0]?.containerStatus[0]?.created;
    await container().start();
    await expect.poll(() => reported(run.fake)[0]?.containerStatus[0]?.state).toBe('running');
    expect(reported(run.fake)[0]?.containerStatus[0]?.created).toBe(created);
    expect(puts(run.fake, 'status')).toBeGreaterThan(writes);
  });

  it('reports the workload gone once its agreement ended', async () => {
    const p = (run.agent.ctx.protocol as NodeProtocol).parts;
    startTermination(p, id, 107);
    await expect.poll(() => reported(run.fake)).toEqual([]);
  });
});

describe.skipIf(!docker)('a burst of workload events, and surfaced errors', () => {
  const engine = docker as Docker;
  let run: Running;
  let image: string;

  beforeAll(async () => {
    image = await busyboxTestImage();
    // No periodic look within the test: only events lead to a look, 300 ms after the first one.
    run = await startReporting({ statusCheckMs: 3_600_000, statusCoalesceMs: 300 });
  }, 240_000);
  afterAll(async () => {
    if (run) await stopReporting(run);
  });

  it('three containers stopping make one status write and one errors write, in anax`s shape', {
    timeout: 120_000,
  }, async () => {
    const p = (run.agent.ctx.protocol as NodeProtocol).parts;
    const ids = ['a', 'b', 'c'].map((name) => agree(run, image, name));
    for (const id of ids) await startWorkload(p, id);
    await expect
      .poll(() => reported(run.fake).map((s) => s.containerStatus[0]?.state))
      .toEqual(['running', 'running', 'running']);
    // A start's later events may still have a look coming: counting starts once it came.
    await expect.poll(() => run.reporter.busy()).toBe(false);
    const statusWrites = puts(run.fake, 'status');
    const errorWrites = puts(run.fake, 'errors');
    for (const [i, id] of ids.entries())
      await engine.getContainer(containerName(id, `${tag}${'abc'[i]}`)).stop({ t: 0 });
    // What the container check would log for each: three events at once.
    for (const id of ids) {
      const agreement = findAgreement(run.agent.ctx.store, id);
      if (!agreement) throw new Error('no agreement');
      run.agent.ctx.events.add(
        'error',
        'error_start_container',
        `Workload service containers for ${agreement.workload_to_run.url} are not running.`,
        'agreement',
        agreementSource(agreement),
      );
    }
    await expect
      .poll(() => reported(run.fake).map((s) => s.containerStatus[0]?.state))
      .toEqual(['exited', 'exited', 'exited']);
    await expect.poll(() => puts(run.fake, 'errors')).toBe(errorWrites + 1);
    // A later known change is the only other write: the burst made exactly one.
    const first = ids[0] as string;
    await engine.getContainer(containerName(first, `${tag}a`)).start();
    run.agent.ctx.events.add('info', 'container_running', 'again', 'agreement', { agreement_id: first });
    const stateOf = (id: string) =>
      reported(run.fake).find((s) => s.agreementId === id)?.containerStatus[0]?.state;
    await expect.poll(() => stateOf(first)).toBe('running');
    expect(puts(run.fake, 'status')).toBe(statusWrites + 2);
    expect(puts(run.fake, 'errors')).toBe(errorWrites + 1);

    const { errors } = run.fake.nodeErrors.get(nodeKey) as { errors: Record<string, unknown>[] };
    expect(errors).toHaveLength(3);
    expect(errors[0]).toEqual({
      record_id: expect.stringMatching(/^\d+$/),
      message: `Workload service containers for https://example.com/${tag}/a are not running.`,
      event_code: 'error_start_container',
      hidden: false,
      workload: { url: `https://example.com/${tag}/a`, org: 'org1', version: '1.0.0', arch: 'amd64' },
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+0000 UTC$/),
    });
    const surface = await run.agent.app.inject({ method: 'GET', url: '/eventlog/surface' });
    expect(surface.json()).toEqual(errors);
  });
});

describe.skipIf(!docker)('a workload container that exits, told by the engine', () => {
  const engine = docker as Docker;
  let run: Running;
  let image: string;
  let stopWatching = () => {};

  beforeAll(async () => {
    image = await busyboxTestImage();
    // No periodic look within the test: only the engine's exit event can lead to one.
    run = await startReporting({ statusCheckMs: 3_600_000, statusCoalesceMs: 50 });
    // As agent.ts wires it when the agent starts.
    const protocol = run.agent.ctx.protocol as NodeProtocol;
    const watch = protocol.watchExits((containerId) => run.reporter.containerExited(containerId));
    stopWatching = () => watch.stop();
    await watch.opened;
  }, 240_000);
  afterAll(async () => {
    stopWatching();
    if (run) await stopReporting(run);
  });

  it('is reported at once, without a workload event or a periodic look', async () => {
    const p = (run.agent.ctx.protocol as NodeProtocol).parts;
    const id = agree(run, image, 'exits');
    await startWorkload(p, id);
    await expect.poll(() => reported(run.fake)[0]?.containerStatus[0]?.state).toBe('running');
    await expect.poll(() => run.reporter.busy()).toBe(false);
    const events = run.agent.ctx.store.events(0).length;
    const looks = run.reporter.counts.looks;
    // A stop by the engine's API: the engine does not start it again (restart policy `always`).
    await engine.getContainer(containerName(id, `${tag}exits`)).stop({ t: 0 });
    await expect.poll(() => reported(run.fake)[0]?.containerStatus[0]?.state).toBe('exited');
    expect(run.agent.ctx.store.events(0)).toHaveLength(events);
    expect(run.reporter.counts.looks).toBeGreaterThan(looks);
  });

  it('a container the engine keeps restarting is reported `restarting`, and fails the container check (103)', async () => {
    const p = (run.agent.ctx.protocol as NodeProtocol).parts;
    const id = agree(run, image, 'loops', ['sh', '-c', 'exit 3']);
    await startWorkload(p, id);
    const state = () => reported(run.fake).find((s) => s.agreementId === id)?.containerStatus[0]?.state;
    // Podman starts it again at once: the engine shows it `running` at almost every look.
    await expect.poll(state).toBe('restarting');
    // The looks at the ends of its next holds show it so still: it exited again in each.
    const looks = run.reporter.counts.looks;
    await expect.poll(() => run.reporter.counts.looks).toBeGreaterThanOrEqual(looks + 2);
    expect(state()).toBe('restarting');
    const node = loadNode(run.agent.ctx.store);
    if (!node) throw new Error('no node');
    await governAgreements(p, node, credentials(node), true);
    expect(findAgreement(run.agent.ctx.store, id)?.terminated_reason).toBe(103);
  });

  it('a container that exited once and runs again is reported `restarting`, then `running`', async () => {
    const p = (run.agent.ctx.protocol as NodeProtocol).parts;
    // Exits on its first run only: the engine starts the same container again, which then stays up.
    const once = 'if [ ! -e /ran ]; then touch /ran; exit 3; fi; exec sleep 3600';
    const id = agree(run, image, 'once', ['sh', '-c', once]);
    await startWorkload(p, id);
    const state = () => reported(run.fake).find((s) => s.agreementId === id)?.containerStatus[0]?.state;
    await expect.poll(state).toBe('restarting');
    // The look at the end of its quiet hold (2 s) shows it up again.
    await expect.poll(state).toBe('running');
    const node = loadNode(run.agent.ctx.store);
    if (!node) throw new Error('no node');
    await governAgreements(p, node, credentials(node), true);
    expect(findAgreement(run.agent.ctx.store, id)?.terminated_reason).toBe(0);
  });
});
