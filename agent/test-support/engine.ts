import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type Docker from 'dockerode';
import { engineAt } from '../workloads/engine.ts';

export const ENGINE_SKIP_MESSAGE =
  'container tests skipped: no container engine answers on DOCKER_HOST ' +
  '(start one with `export $(scripts/containers/podman-service.sh start /tmp/oe-engine)`)';

const BUSYBOX = '/bin/busybox';

/**
 * The engine the container tests use, or undefined (with the reason printed once) when none answers.
 * The ping waits for the engine's answer: a busy engine on a loaded machine (the whole suite beside
 * a busy core) took longer than the 5 s this allowed once, and every container file skipped
 * silently. The bound only says when to give up; the skip names what the ping met.
 */
export async function reachableEngine(): Promise<Docker | undefined> {
  const docker = engineAt(process.env.DOCKER_HOST, PING_BOUND_MS);
  try {
    await docker.ping();
  } catch (error) {
    console.warn(`${ENGINE_SKIP_MESSAGE} [${(error as { code?: string }).code ?? (error as Error).message}]`);
    return undefined;
  }
  if (!existsSync(BUSYBOX)) {
    console.warn(`container tests skipped: ${BUSYBOX} is missing (Debian package busybox-static)`);
    return undefined;
  }
  return docker;
}

const PING_BOUND_MS = 60_000;

const IMAGE = 'oe-test/busybox:1';
let built: Promise<string> | undefined;

/**
 * Builds the test image once per process through the engine's build API (testcontainers, with
 * its reaper off: each test removes what it created) and returns its name.
 */
export function busyboxTestImage(): Promise<string> {
  built ??= (async () => {
    process.env.TESTCONTAINERS_RYUK_DISABLED ??= 'true';
    const { GenericContainer } = await import('testcontainers');
    const context = mkdtempSync(join(tmpdir(), 'oe-busybox-'));
    try {
      const here = dirname(fileURLToPath(import.meta.url));
      copyFileSync(join(here, 'busybox-image', 'Dockerfile'), join(context, 'Dockerfile'));
      copyFileSync(BUSYBOX, join(context, 'busybox'));
      await GenericContainer.fromDockerfile(context).build(IMAGE, { deleteOnExit: false });
      return IMAGE;
    } finally {
      rmSync(context, { recursive: true, force: true });
    }
  })();
  return built;
}

/** What a command printed inside a running container, through the engine's exec API. */
export async function execOutput(container: Docker.Container, cmd: string[]): Promise<string> {
  const exec = await container.exec({ Cmd: cmd, AttachStdout: true, AttachStderr: true });
  const stream = await exec.start({});
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  await new Promise((resolve) => stream.on('end', resolve));
  // The attach stream is multiplexed: an 8-byte header (stream, size) before each frame.
  const raw = Buffer.concat(chunks);
  let text = '';
  for (let at = 0; at + 8 <= raw.length; ) {
    const size = raw.readUInt32BE(at + 4);
    text += raw.subarray(at + 8, at + 8 + size).toString();
    at += 8 + size;
  }
  return text;
}
