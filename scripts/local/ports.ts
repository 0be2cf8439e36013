import { connect, createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** True when nothing listens on 127.0.0.1:port. */
export function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A free port below the kernel's ephemeral range (32768-60999 on Linux), checked by binding it.
 * Ports handed to a child process stay unbound until it starts, sometimes for minutes; in the
 * ephemeral range an outgoing connection or another `listen(0)` could take one meanwhile
 * (EADDRINUSE under the full test suite's load). Below it, only another explicit choice can: so
 * each test worker picks from a band of its own (`VITEST_POOL_ID`; band 0 outside the workers),
 * and a process never hands out the same port twice while it has others left.
 */
export async function freePort(): Promise<number> {
  const { from, to } = portBand(Number(process.env.VITEST_POOL_ID));
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = from + Math.floor(Math.random() * (to - from));
    if (handedOut.has(port) && attempt < 100) continue;
    if (await isPortFree(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free port between ${from} and ${to}`);
}

const LOW_PORTS_FROM = 20_000;
const LOW_PORTS_TO = 32_700;
const BANDS = 8;
const handedOut = new Set<number>();

/** The ports of a test worker (1, 2, …), or of any other process (band 0). */
export function portBand(worker: number): { from: number; to: number } {
  const width = Math.floor((LOW_PORTS_TO - LOW_PORTS_FROM) / BANDS);
  const band = Number.isInteger(worker) && worker > 0 ? ((worker - 1) % (BANDS - 1)) + 1 : 0;
  return { from: LOW_PORTS_FROM + band * width, to: LOW_PORTS_FROM + (band + 1) * width };
}

/** Resolves once something accepts connections on 127.0.0.1:port. */
export async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await sleep(100);
  }
  throw new Error(`nothing listened on port ${port} within ${timeoutMs} ms`);
}
