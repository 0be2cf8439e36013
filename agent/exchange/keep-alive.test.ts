import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttp } from '#lib/http-client';

/**
 * The agent's and the agbot's HTTP client (lib/http-client.ts) on a kept-alive connection that
 * the server drops: the server here answers each connection's first request and resets the
 * connection at its second, as a server closing an idle connection just as a request goes out.
 */
let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

async function serve(onRequest: (nthOnConnection: number) => 'answer' | 'reset') {
  const perConnection = new WeakMap<object, number>();
  let connections = 0;
  server = createServer((req, res) => {
    const n = (perConnection.get(req.socket) ?? 0) + 1;
    perConnection.set(req.socket, n);
    if (onRequest(n) === 'reset') req.socket.destroy();
    else res.end(JSON.stringify({ connection: perConnection.get(req.socket) }));
  });
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/x`);
  return { url, connections: () => connections };
}

describe('the HTTP client on a kept-alive connection', () => {
  it('sends again on a new connection when a reused one is reset before any answer', async () => {
    const { url, connections } = await serve((n) => (n === 1 ? 'answer' : 'reset'));
    const http = createHttp(5000);
    try {
      expect((await http.send('GET', url, {}, undefined)).status).toBe(200);
      // The next request goes out on the kept connection, which the server resets: sent again.
      const again = await http.send('POST', url, { 'content-type': 'application/json' }, '{}');
      expect(again.status).toBe(200);
      expect(connections()).toBe(2);
    } finally {
      http.close();
    }
  });

  it('does not send again when a new connection is reset', async () => {
    const { url, connections } = await serve(() => 'reset');
    const http = createHttp(5000);
    try {
      await expect(http.send('GET', url, {}, undefined)).rejects.toThrow(/socket hang up|ECONNRESET/);
      expect(connections()).toBe(1);
    } finally {
      http.close();
    }
  });
});
