import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Docker from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import { parseDeployment } from '#lib/protocol/deployment';
import { busyboxTestImage, execOutput, reachableEngine } from '../test-support/engine.ts';
import type { ContainerPlan } from './container-spec.ts';
import {
  containersOf,
  type EngineNotice,
  ensureImage,
  ensureNetwork,
  removeWorkload,
  startContainer,
  workloadKeys,
} from './engine.ts';
import { SecretFiles } from './secret-files.ts';

const docker = await reachableEngine();
const key = `oeengine${process.pid}`;
const secretsRoot = mkdtempSync(join(tmpdir(), 'oe-engine-'));

describe.skipIf(!docker)('workloads on the engine (podman or Docker through the Docker Engine API)', () => {
  const engine = docker as Docker;
  const notices: EngineNotice[] = [];
  const secrets = new SecretFiles(secretsRoot);
  afterAll(async () => {
    await removeWorkload(engine, key);
    rmSync(secretsRoot, { recursive: true, force: true });
  });

  const plan = async (serviceName: string, service: object): Promise<ContainerPlan> => ({
    key,
    serviceName,
    service: parseDeployment(JSON.stringify({ services: { [serviceName]: service } })).services[
      serviceName
    ] as ContainerPlan['service'],
    env: [`HZN_AGREEMENTID=${key}`, 'GREETING=hello'],
    secretsDir: secrets.directoryOf(key),
    nodeMemoryMb: 128,
    allowPrivileged: false,
  });

  it('uses the local image when no registry answers, and says so', async () => {
    const image = await busyboxTestImage();
    await ensureImage(engine, image, (notice) => notices.push(notice));
    expect(notices).toEqual([expect.objectContaining({ kind: 'image_local_fallback', image })]);
    await expect(ensureImage(engine, 'oe-test/never-built:1', () => {})).rejects.toThrow(
      /could not be pulled/,
    );
  });

  it('runs two services on the agreement’s bridge, reachable by their service names, with env and secrets', async () => {
    const image = await busyboxTestImage();
    secrets.write(key, { token: { key: 'user', value: 'first' } });
    await ensureNetwork(engine, key);
    await ensureNetwork(engine, key); // idempotent
    await startContainer(engine, await plan('db', { image, command: ['sleep', '300'] }), (n) =>
      notices.push(n),
    );
    const web = await startContainer(engine, await plan('web', { image, command: ['sleep', '300'] }), (n) =>
      notices.push(n),
    );

    const listed = await containersOf(engine, key);
    expect(listed.map((c) => c.Names[0]).sort()).toEqual([`/${key}-db`, `/${key}-web`]);
    expect(listed.every((c) => c.State === 'running')).toBe(true);
    expect(await workloadKeys(engine)).toContain(key);

    expect(await execOutput(web, ['sh', '-c', 'echo $GREETING $HZN_AGREEMENTID'])).toBe(`hello ${key}\n`);
    expect(await execOutput(web, ['ping', '-c', '1', '-W', '2', 'db'])).toMatch(/1 packets received/);
    expect(JSON.parse(await execOutput(web, ['cat', '/platform-secrets/token']))).toEqual({
      key: 'user',
      value: 'first',
    });
    expect(JSON.parse(await execOutput(web, ['cat', '/open-horizon-secrets/token'])).value).toBe('first');

    const started = (await web.inspect()).State.StartedAt;
    secrets.write(key, { token: { key: 'user', value: 'second' } });
    expect(JSON.parse(await execOutput(web, ['cat', '/platform-secrets/token'])).value).toBe('second');
    expect((await web.inspect()).State.StartedAt).toBe(started);
  });

  it('falls back to the engine’s log driver when the deployment’s cannot be used', async () => {
    const image = await busyboxTestImage();
    const before = notices.length;
    const container = await startContainer(
      engine,
      await plan('logs', { image, command: ['sleep', '300'], log_driver: 'no-such-driver' }),
      (n) => notices.push(n),
    );
    expect(notices.slice(before)).toEqual([
      expect.objectContaining({ kind: 'log_driver_fallback', driver: 'no-such-driver' }),
    ]);
    expect((await container.inspect()).State.Running).toBe(true);
  });

  it('removes every container and the network of the agreement', async () => {
    await removeWorkload(engine, key);
    expect(await containersOf(engine, key)).toEqual([]);
    const networks = await engine.listNetworks({ filters: { name: [key] } });
    expect(networks.filter((n) => n.Name === key)).toEqual([]);
    await removeWorkload(engine, key); // nothing left: still fine
  });
});
