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
 * (EADDRINUSE under the full test suite's load). Below it, only another explicit choice can.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = LOW_PORTS_FROM + Math.floor(Math.random() * (LOW_PORTS_TO - LOW_PORTS_FROM));
    if (await isPortFree(port)) return port;
  }
  throw new Error(`no free port between ${LOW_PORTS_FROM} and ${LOW_PORTS_TO}`);
}

const LOW_PORTS_FROM = 20_000;
const LOW_PORTS_TO = 32_700;

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
