import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Docker from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import { parseDeployment } from '#lib/protocol/deployment';
import { busyboxTestImage, execOutput, reachableEngine } from '../test-support/engine.ts';
import { testWorkloadEnvironment } from '../test-support/workload-environment.ts';
import { containersOf, removeWorkload } from './engine.ts';
import { type WorkloadEvent, type WorkloadRequest, WorkloadRunner } from './runner.ts';
import { SecretFiles } from './secret-files.ts';

const docker = await reachableEngine();
const root = mkdtempSync(join(tmpdir(), 'oe-runner-'));
const agreement = (suffix: string) => `oerunner${process.pid}${suffix}`;

describe.skipIf(!docker)('WorkloadRunner on the engine', () => {
  const engine = docker as Docker;
  const events: WorkloadEvent[] = [];
  const runner = new WorkloadRunner(engine, new SecretFiles(root), (event) => events.push(event));
  const used: string[] = [];
  afterAll(async () => {
    for (const id of used) await removeWorkload(engine, id);
    rmSync(root, { recursive: true, force: true });
  });

  const request = async (id: string, services: Record<string, object>): Promise<WorkloadRequest> => {
    used.push(id);
    const image = await busyboxTestImage();
    const withImage = Object.fromEntries(
      Object.entries(services).map(([name, s]) => [name, { image, command: ['sleep', '300'], ...s }]),
    );
    return {
      agreementId: id,
      deployment: parseDeployment(JSON.stringify({ services: withImage })),
      secrets: { token: { key: 'user', value: 'v1-secret-marker' } },
      environment: testWorkloadEnvironment(id),
      nodeMemoryMb: 128,
      allowPrivileged: false,
    };
  };

  it('starts every service, reports the events without secret values, and tells health (a looping container fails it)', async () => {
    const id = agreement('a');
    const work = await request(id, { web: {}, db: {} });
    await runner.start(work);
    expect(await runner.health(id, work.deployment)).toBe('running');
    // A container the exits say loops is not running, whatever the engine shows now.
    const [web] = (await containersOf(engine, id)).filter((c) => c.Names[0] === `/${id}-web`);
    expect(web?.State).toBe('running');
    expect(await runner.health(id, work.deployment, new Set([web?.Id as string]))).toBe('failed');
    const mine = events.filter((e) => e.agreementId === id).map((e) => e.kind);
    expect(mine.filter((k) => k === 'image_loaded')).toHaveLength(2);
    expect(mine.at(-1)).toBe('container_running');
    expect(JSON.stringify(events)).not.toContain('v1-secret-marker');
    expect(await runner.agreementsOnEngine()).toContain(id);

    const [db] = (await containersOf(engine, id)).filter((c) => c.Names[0] === `/${id}-db`);
    await engine.getContainer(db?.Id as string).stop({ t: 0 });
    expect(await runner.health(id, work.deployment)).toBe('failed');
  });

  it('leaves nothing behind when a container cannot start', async () => {
    const id = agreement('b');
    const work = await request(id, { first: {}, second: { privileged: true } });
    await expect(runner.start(work)).rejects.toThrow(/privileged/);
    expect(await containersOf(engine, id)).toEqual([]);
    expect(new SecretFiles(root).names(id)).toEqual([]);
    expect(events.some((e) => e.agreementId === id && e.kind === 'error_start_container')).toBe(true);
  });

  it('binds the host’s /etc only on a node that allows privileged services', async () => {
    const id = agreement('d');
    const work = await request(id, { web: { binds: ['//etc/:/host-etc:ro'] } });
    await expect(runner.start(work)).rejects.toThrow(
      'container web: binds "//etc/:/host-etc:ro" mounts the host\'s /etc, which the node policy does not allow',
    );
    expect(await containersOf(engine, id)).toEqual([]);
    expect(new SecretFiles(root).names(id)).toEqual([]);

    await runner.start({ ...work, allowPrivileged: true });
    const [web] = await containersOf(engine, id);
    const seen = await execOutput(engine.getContainer(web?.Id as string), ['cat', '/host-etc/hostname']);
    expect(seen.trim()).toBe(readFileSync('/etc/hostname', 'utf8').trim());
  });

  it('runs a start and a stop of one agreement in order: nothing is left', async () => {
    const id = agreement('c');
    const work = await request(id, { web: {} });
    await Promise.all([runner.start(work), runner.stop(id)]);
    expect(await containersOf(engine, id)).toEqual([]);
    expect(await runner.health(id, work.deployment)).toBe('absent');
    expect(new SecretFiles(root).names(id)).toEqual([]);
  });
});
