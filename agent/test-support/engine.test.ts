import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Docker from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import { engineSocketPath } from '../workloads/engine.ts';
import { busyboxTestImage, execOutput, reachableEngine } from './engine.ts';

const docker = await reachableEngine();

describe('engineSocketPath', () => {
  it('reads DOCKER_HOST, defaults to Docker’s socket, and refuses tcp hosts', () => {
    expect(engineSocketPath('unix:///run/podman.sock')).toBe('/run/podman.sock');
    expect(engineSocketPath('')).toBe('/var/run/docker.sock');
    expect(() => engineSocketPath('tcp://127.0.0.1:2375')).toThrow(/unix:\/\//);
  });
});

describe.skipIf(!docker)('the container test fixture (busybox image on the engine)', () => {
  const created: Docker.Container[] = [];
  const secrets = mkdtempSync(join(tmpdir(), 'oe-engine-secrets-'));
  afterAll(async () => {
    for (const container of created) await container.remove({ force: true });
    rmSync(secrets, { recursive: true, force: true });
  });

  it('runs a container whose bind-mounted directory shows a file replaced by rename', async () => {
    const engine = docker as Docker;
    const image = await busyboxTestImage();
    writeFileSync(join(secrets, 's1'), 'first');
    const container = await engine.createContainer({
      name: `oe-engine-fixture-${process.pid}`,
      Image: image,
      Cmd: ['sleep', '300'],
      HostConfig: { Binds: [`${secrets}:/platform-secrets:ro`] },
    });
    created.push(container);
    await container.start();
    expect(await execOutput(container, ['cat', '/platform-secrets/s1'])).toBe('first');
    writeFileSync(join(secrets, 's1.tmp'), 'second');
    renameSync(join(secrets, 's1.tmp'), join(secrets, 's1'));
    expect(await execOutput(container, ['cat', '/platform-secrets/s1'])).toBe('second');
  });
});
