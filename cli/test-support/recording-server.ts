import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real HTTP server on 127.0.0.1 that records every request and answers from a route table
 * (`"GET /v1/admin/version"` → reply), 404 `{}` otherwise: the boundary hzn talks to, without mocks.
 */
export interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface Reply {
  status: number;
  body?: unknown;
}

export type Route = Reply | ((req: Recorded, count: number) => Reply);

export interface RecordingServer {
  url: string;
  requests: Recorded[];
  routes: Map<string, Route>;
  /** Adds or replaces routes (`"METHOD /path?query"`, the query optional in the key). */
  on(routes: Record<string, Route>): void;
  reset(): void;
  /** `"METHOD /path?query"` of every request so far. */
  calls(): string[];
  close(): Promise<void>;
}

export async function startRecordingServer(): Promise<RecordingServer> {
  const requests: Recorded[] = [];
  const routes = new Map<string, Route>();
  const counts = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const recorded = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(recorded);
      const withQuery = `${recorded.method} ${recorded.url}`;
      const withoutQuery = `${recorded.method} ${recorded.url.split('?')[0]}`;
      const key = routes.has(withQuery) ? withQuery : withoutQuery;
      const count = (counts.get(key) ?? 0) + 1;
      counts.set(key, count);
      const route = routes.get(key);
      const reply =
        typeof route === 'function' ? route(recorded, count) : (route ?? { status: 404, body: {} });
      const text =
        reply.body === undefined
          ? ''
          : typeof reply.body === 'string'
            ? reply.body
            : JSON.stringify(reply.body);
      res.writeHead(
        reply.status,
        typeof reply.body === 'string'
          ? { 'content-type': 'text/plain' }
          : { 'content-type': 'application/json' },
      );
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    routes,
    on(more) {
      for (const [k, v] of Object.entries(more)) routes.set(k, v);
    },
    reset() {
      requests.length = 0;
      routes.clear();
      counts.clear();
    },
    calls: () => requests.map((r) => `${r.method} ${r.url}`),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
