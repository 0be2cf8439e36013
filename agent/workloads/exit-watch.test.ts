/**
 * The engine's `die` events as the node status worker's cue (exit-watch.ts): with real containers
 * (podman through the Docker Engine API), a workload container's exit is told with its id and
 * another container's is not; against a socket that drops the stream, the watch opens it again
 * and says an exit may have gone unseen. Waits on the calls themselves, never on the clock.
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import { silentLogger } from '#lib/json-logger';
import { busyboxTestImage, reachableEngine } from '../test-support/engine.ts';
import { LABELS } from './container-spec.ts';
import { engineAt } from './engine.ts';
import { exitedWorkload, watchExits } from './exit-watch.ts';

const docker = await reachableEngine();
const options = { log: silentLogger, retryMinMs: 10, retryMaxMs: 50 };

/** Records every call of `onExit`; `next` waits for one. */
function recorder() {
  const calls: Array<string | undefined> = [];
  const waiters: Array<{ accept: (id?: string) => boolean; resolve: (id?: string) => void }> = [];
  const onExit = (id?: string) => {
    calls.push(id);
    for (const w of waiters.splice(0))
      if (w.accept(id)) w.resolve(id);
      else waiters.push(w);
  };
  /** The first call, already made or still to come, that `accept` takes. */
  const next = (accept: (id?: string) => boolean) =>
    new Promise<string | undefined>((resolve) => {
      const made = calls.findIndex((id) => accept(id));
      if (made >= 0) resolve(calls[made]);
      else waiters.push({ accept, resolve });
    });
  return { calls, onExit, next };
}

describe('which engine events are a workload exit', () => {
  const die = (attributes: Record<string, string>) => ({
    Type: 'container',
    Action: 'die',
    Actor: { ID: 'c1', Attributes: attributes },
  });

  it('a die of a container with the agreement label, and nothing else', () => {
    expect(exitedWorkload(die({ [LABELS.agreementId]: 'a1', name: 'x' }))).toBe('c1');
    expect(exitedWorkload(die({ name: 'someone-else' }))).toBeUndefined();
    expect(exitedWorkload({ ...die({ [LABELS.agreementId]: 'a1' }), Action: 'start' })).toBeUndefined();
    expect(exitedWorkload({ ...die({ [LABELS.agreementId]: 'a1' }), Type: 'image' })).toBeUndefined();
    expect(exitedWorkload({})).toBeUndefined();
  });
});

describe.skipIf(!docker)('a workload container exits on the engine', () => {
  const engine = docker as Docker;
  const names = [`oeexit${process.pid}a`, `oeexit${process.pid}b`];
  afterAll(async () => {
    for (const name of names)
      await engine
        .getContainer(name)
        .remove({ force: true })
        .catch(() => {});
  });

  async function runToExit(name: string, labels: Record<string, string>): Promise<string> {
    const container = await engine.createContainer({
      Image: await busyboxTestImage(),
      name,
      Cmd: ['sh', '-c', 'exit 3'],
      Labels: labels,
    });
    await container.start();
    await container.wait();
    return container.id;
  }

  it('is told with its id; a container without the label is not', async () => {
    const seen = recorder();
    // No request timeout, as the agent opens it: the stream is idle between exits.
    const watch = watchExits(engineAt(), seen.onExit, options);
    try {
      await watch.opened;
      const other = await runToExit(names[0] as string, { 'oe.test': 'not a workload' });
      const id = await runToExit(names[1] as string, { [LABELS.agreementId]: 'oeexit-agreement' });
      // The unlabelled exit came first in the stream, so by now it would have been told. Other
      // files' workload containers may exit meanwhile on the same engine: only these two count.
      await seen.next((told) => told === id);
      expect(seen.calls.filter((told) => told === id || told === other)).toEqual([id]);
    } finally {
      watch.stop();
    }
  });
});

describe('an events stream the engine drops', () => {
  const dir = mkdtempSync(join(tmpdir(), 'oe-exit-watch-'));
  const socket = join(dir, 'engine.sock');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is opened again, and the worker told an exit may have gone unseen', async () => {
    const open: ServerResponse[] = [];
    let requests = 0;
    // Stands in for the engine only to drop its stream: the first is ended, the second kept.
    const server = createServer((req, res) => {
      requests++;
      expect(req.url).toMatch(/^\/events\?filters=/);
      res.writeHead(200, { 'content-type': 'application/json' });
      if (requests === 1) res.end();
      else {
        res.flushHeaders();
        open.push(res);
      }
    });
    server.listen(socket);
    await once(server, 'listening');
    const seen = recorder();
    const watch = watchExits(new Docker({ socketPath: socket }), seen.onExit, options);
    try {
      await watch.opened;
      expect(await seen.next(() => true)).toBeUndefined();
      expect(requests).toBe(2);
      // Events on the reopened stream are read, split across chunks as a socket may deliver them.
      const event = JSON.stringify({
        Type: 'container',
        Action: 'die',
        Actor: { ID: 'c9', Attributes: { [LABELS.agreementId]: 'a9' } },
      });
      const told = seen.next((id) => id === 'c9');
      open[0]?.write(`${event.slice(0, 20)}`);
      open[0]?.write(`${event.slice(20)}\n`);
      expect(await told).toBe('c9');
    } finally {
      watch.stop();
      for (const res of open) res.end();
      server.close();
    }
  });
});
