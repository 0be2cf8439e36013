import { createServer, request, type Server } from 'node:http';
import { type AddressInfo, connect as connectTcp, createServer as createNetServer } from 'node:net';

/**
 * Counting proxies for the fleet benchmark: one in front of the Exchange (HTTP requests by route
 * and their time), one in front of DynamoDB Local (calls by operation and the capacity DynamoDB
 * reports, which the proxy asks for on every call that can report it).
 */
export interface Counts {
  /** Key → count. */
  calls: Map<string, number>;
  readUnits: Map<string, number>;
  writeUnits: Map<string, number>;
  /** Milliseconds spent per HTTP request, counting or not (Exchange proxy only). */
  durationsMs: number[];
  counting: boolean;
}

export const newCounts = (): Counts => ({
  calls: new Map(),
  readUnits: new Map(),
  writeUnits: new Map(),
  durationsMs: [],
  counting: false,
});

const add = (map: Map<string, number>, key: string, value: number) =>
  map.set(key, (map.get(key) ?? 0) + value);

/** `/v1/orgs/acme/nodes/n1/policy` → `/v1/orgs/{org}/nodes/{id}/policy`. */
function routeOf(path: string): string {
  const parts = path.split('?')[0]?.split('/') ?? [];
  const named = new Set(['orgs', 'nodes', 'agbots', 'msgs', 'agreements', 'managementStatus', 'users']);
  return parts
    .map((part, i) => (i > 0 && named.has(parts[i - 1] as string) ? `{${parts[i - 1]}}` : part))
    .join('/');
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
}

function forward(target: URL, method: string, path: string, headers: Record<string, unknown>, body: Buffer) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>(
    (resolve, reject) => {
      const out = request(
        {
          host: target.hostname,
          port: target.port,
          method,
          path,
          headers: { ...headers, 'content-length': body.length },
        },
        async (res) =>
          resolve({ status: res.statusCode ?? 502, headers: res.headers, body: await readAll(res) }),
      );
      out.on('error', reject);
      out.end(body);
    },
  );
}

/** In front of the Exchange: counts `METHOD /route` and the time each request took. */
export async function exchangeProxy(target: string, counts: Counts): Promise<{ url: string; close(): void }> {
  const to = new URL(target);
  const server = createServer(async (req, res) => {
    const started = performance.now();
    const body = await readAll(req);
    const answer = await forward(to, req.method ?? 'GET', req.url ?? '/', { ...req.headers }, body).catch(
      () => undefined,
    );
    // Every request's time (the idle window may hold none): what a Lambda's duration is priced at.
    counts.durationsMs.push(performance.now() - started);
    if (counts.counting) add(counts.calls, `${req.method} ${routeOf(req.url ?? '/')}`, 1);
    if (!answer) {
      res.writeHead(502).end();
      return;
    }
    res.writeHead(answer.status, answer.headers as Record<string, string>).end(answer.body);
  });
  const url = await listen(server);
  return { url, close: () => server.close() };
}

const REPORTS_CAPACITY = new Set([
  'GetItem',
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'Query',
  'Scan',
  'BatchGetItem',
  'BatchWriteItem',
  'TransactWriteItems',
  'TransactGetItems',
]);
const READS = new Set(['GetItem', 'Query', 'Scan', 'BatchGetItem', 'TransactGetItems']);

/** Whether a DynamoDB operation (`GetItem`, …) spends read units; the others spend write units. */
export const isReadOperation = (operation: string): boolean => READS.has(operation);

type Capacity = { CapacityUnits?: number };

/** The units a call reports (`ConsumedCapacity`: one entry, or one per table of a batch). */
export const consumedUnits = (consumed: Capacity | Capacity[] | undefined): number =>
  [consumed ?? []].flat().reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);

/** In front of DynamoDB Local: counts operations and their consumed capacity (table and indexes). */
export async function dynamoProxy(target: string, counts: Counts): Promise<{ url: string; close(): void }> {
  const to = new URL(target);
  const server = createServer(async (req, res) => {
    const operation = String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? 'unknown';
    let body = await readAll(req);
    if (REPORTS_CAPACITY.has(operation)) {
      const input = JSON.parse(body.toString() || '{}') as Record<string, unknown>;
      if (process.env.FLEET_DEBUG && counts.counting)
        console.error(
          operation,
          JSON.stringify(input.ExpressionAttributeValues ?? input.Key ?? '').slice(0, 200),
        );
      input.ReturnConsumedCapacity = 'TOTAL';
      body = Buffer.from(JSON.stringify(input));
    }
    const answer = await forward(to, req.method ?? 'POST', req.url ?? '/', { ...req.headers }, body).catch(
      () => undefined,
    );
    if (!answer) {
      res.writeHead(502).end();
      return;
    }
    if (counts.counting) {
      add(counts.calls, operation, 1);
      try {
        const output = JSON.parse(answer.body.toString() || '{}') as {
          ConsumedCapacity?: Capacity | Capacity[];
        };
        const units = consumedUnits(output.ConsumedCapacity);
        add(isReadOperation(operation) ? counts.readUnits : counts.writeUnits, operation, units);
      } catch {
        // not JSON: nothing to add
      }
    }
    res.writeHead(answer.status, answer.headers as Record<string, string>).end(answer.body);
  });
  const url = await listen(server);
  return { url, close: () => server.close() };
}

/** What the signal channel cost while counting: connection time and messages each way. */
export interface SocketCounts {
  /** Time of connections closed while counting (open ones: `connectionMs()`). */
  closedConnectionMs: number;
  /** Data frames clients sent (keepalives): each invokes the signal function. */
  clientMessages: number;
  /** Data frames the Exchange sent ("look now"). */
  serverMessages: number;
  /** Upgrades accepted and upgraded connections closed ($connect, $disconnect invocations). */
  connects: number;
  disconnects: number;
  /** performance.now() when counting started; undefined while not counting. */
  countingSince: number | undefined;
  /** Upgrade times of the connections open now. */
  open: Set<{ upgradedAt: number }>;
}

export const newSocketCounts = (): SocketCounts => ({
  closedConnectionMs: 0,
  clientMessages: 0,
  serverMessages: 0,
  connects: 0,
  disconnects: 0,
  countingSince: undefined,
  open: new Set(),
});

/** Connection time within the counting window so far, closed and open connections. */
export function connectionMs(counts: SocketCounts, now = performance.now()): number {
  const since = counts.countingSince ?? now;
  let total = counts.closedConnectionMs;
  for (const socket of counts.open) total += now - Math.max(socket.upgradedAt, since);
  return total;
}

/**
 * Counts data frames (text, binary) in a WebSocket byte stream; control frames (ping, pong, close)
 * are free on API Gateway. Frames may arrive split or several in one chunk.
 */
function frameCounter(onData: () => void): (chunk: Buffer) => void {
  let pending = Buffer.alloc(0);
  return (chunk) => {
    pending = Buffer.concat([pending, chunk]);
    for (;;) {
      if (pending.length < 2) return;
      const opcode = (pending[0] as number) & 0x0f;
      const masked = ((pending[1] as number) & 0x80) !== 0;
      let length = (pending[1] as number) & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (pending.length < 4) return;
        length = pending.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (pending.length < 10) return;
        length = Number(pending.readBigUInt64BE(2));
        offset = 10;
      }
      const end = offset + (masked ? 4 : 0) + length;
      if (pending.length < end) return;
      if (opcode === 1 || opcode === 2) onData();
      pending = pending.subarray(end);
    }
  };
}

/**
 * A TCP proxy in front of the signal channel (serverless-offline's WebSocket port): forwards every
 * byte; on a connection the server upgrades (101), counts its time and its data frames each way.
 * Plain HTTP through it (the @connections management API) is forwarded uncounted: the frames it
 * causes are counted on the listener's connection.
 */
export async function socketProxy(
  targetPort: number,
  counts: SocketCounts,
): Promise<{ port: number; close(): void }> {
  const counting = () => counts.countingSince !== undefined;
  const server = createNetServer((client) => {
    const upstream = connectTcp(targetPort, '127.0.0.1');
    let upgraded: { upgradedAt: number } | undefined;
    let head = '';
    const fromClient = frameCounter(() => {
      if (counting()) counts.clientMessages++;
    });
    const fromServer = frameCounter(() => {
      if (counting()) counts.serverMessages++;
    });
    client.on('data', (chunk: Buffer) => {
      if (upgraded) fromClient(chunk);
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (upgraded) fromServer(chunk);
      else if (head.length < 64) {
        head += chunk.toString('latin1');
        if (head.startsWith('HTTP/1.1 101')) {
          upgraded = { upgradedAt: performance.now() };
          counts.open.add(upgraded);
          if (counting()) counts.connects++;
          const rest = chunk.subarray(chunk.indexOf('\r\n\r\n') + 4);
          if (rest.length > 0) fromServer(rest);
        }
      }
      client.write(chunk);
    });
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      if (upgraded) {
        counts.open.delete(upgraded);
        if (counting()) {
          counts.closedConnectionMs +=
            performance.now() - Math.max(upgraded.upgradedAt, counts.countingSince ?? 0);
          counts.disconnects++;
        }
      }
      client.destroy();
      upstream.destroy();
    };
    for (const socket of [client, upstream]) {
      socket.on('close', end);
      socket.on('error', end);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, close: () => server.close() };
}
