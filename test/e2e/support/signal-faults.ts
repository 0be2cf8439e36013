import { createServer, type IncomingHttpHeaders, request, type Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';

/**
 * Two small proxies for the tests and benchmarks of lost signals (docs/signals.md):
 * - `channelProxy`: in front of the signal channel's whole address (WebSocket upgrades and the
 *   `@connections` management API alike), announced as EXCHANGE_SIGNALS_URL, so that every
 *   "look now" post goes through it whatever the Exchange's code derives its management address
 *   from; once armed it answers 500 to a share of the posts, chosen by count;
 * - `exchangeWatch`: in front of the Exchange for the agents, noting each node's polls (when, and
 *   whether the answer held rows about the node) and mailbox reads (when, and which messages).
 */
const listen = (server: Server): Promise<number> =>
  new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function forward(port: number, method: string, path: string, headers: IncomingHttpHeaders, body: Buffer) {
  return new Promise<Answer>((resolve, reject) => {
    const out = request(
      { host: '127.0.0.1', port, method, path, headers: { ...headers, 'content-length': body.length } },
      async (res) =>
        resolve({ status: res.statusCode ?? 502, headers: res.headers, body: await readAll(res) }),
    );
    out.on('error', reject);
    out.end(body);
  });
}

/** The `org/id` of a request's Basic credentials. */
export function callerOf(headers: IncomingHttpHeaders): string | undefined {
  const value = String(headers.authorization ?? '');
  if (!value.startsWith('Basic ')) return undefined;
  const decoded = Buffer.from(value.slice(6), 'base64').toString();
  return decoded.slice(0, decoded.lastIndexOf(':'));
}

export interface ChannelProxy {
  /** `ws://127.0.0.1:<port>`: announce it (EXCHANGE_SIGNALS_URL). */
  url: string;
  /** Where the real channel listens (known once serverless-offline has started). */
  target(port: number): void;
  /** From now on, post number n (counted from 1 here) fails with 500 when `fails(n)`. */
  arm(fails: (n: number) => boolean): void;
  /** Posts to `@connections` since `arm`, those failed, and closes (DELETE) seen at any time. */
  counts(): { posts: number; failed: number; closes: number };
  /** Every post to `@connections`: when it came, to which connection, and the answer given. */
  posts(): { at: number; connectionId: string; status: number }[];
  /** When each node's channel was last opened (the real channel's answer to its upgrade). */
  openedAt(node: string): number | undefined;
  close(): void;
}

export async function channelProxy(): Promise<ChannelProxy> {
  let targetPort = 0;
  let fails: ((n: number) => boolean) | undefined;
  const counts = { posts: 0, failed: 0, closes: 0 };
  const opened = new Map<string, number>();
  const sockets = new Set<Socket>();
  const posts: { at: number; connectionId: string; status: number }[] = [];
  const server = createServer(async (req, res) => {
    const body = await readAll(req);
    const path = req.url ?? '/';
    if (path.startsWith('/@connections/') && req.method === 'DELETE') counts.closes += 1;
    const post = path.startsWith('/@connections/') && req.method === 'POST';
    const note = (status: number) => {
      if (post) posts.push({ at: Date.now(), connectionId: decodeURIComponent(path.slice(14)), status });
    };
    if (post && fails) {
      counts.posts += 1;
      if (fails(counts.posts)) {
        counts.failed += 1;
        note(500);
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"message":"injected fault"}');
        return;
      }
    }
    const answer = await forward(targetPort, req.method ?? 'GET', path, req.headers, body).catch(
      () => undefined,
    );
    note(answer?.status ?? 502);
    if (!answer) res.writeHead(502).end();
    else res.writeHead(answer.status, answer.headers).end(answer.body);
  });
  // A WebSocket upgrade: the request as it came, then bytes both ways.
  server.on('upgrade', (req, client: Socket, head: Buffer) => {
    const upstream = connect(targetPort, '127.0.0.1');
    sockets.add(client);
    sockets.add(upstream);
    const node = callerOf(req.headers);
    const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
    for (let i = 0; i < req.rawHeaders.length; i += 2)
      lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
    upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
    if (head.length > 0) upstream.write(head);
    upstream.once('data', (chunk: Buffer) => {
      if (node && chunk.toString('latin1').startsWith('HTTP/1.1 101')) opened.set(node, Date.now());
    });
    upstream.pipe(client);
    client.pipe(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    for (const socket of [client, upstream]) {
      socket.on('error', end);
      socket.on('close', end);
    }
  });
  const port = await listen(server);
  return {
    url: `ws://127.0.0.1:${port}`,
    target: (value) => {
      targetPort = value;
    },
    arm: (rule) => {
      fails = rule;
      counts.posts = 0;
      counts.failed = 0;
    },
    counts: () => ({ ...counts }),
    posts: () => [...posts],
    openedAt: (node) => opened.get(node),
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

/** One `POST /orgs/{org}/changes` of a node: when it started, and whether it held rows about the node. */
export interface Poll {
  startedAt: number;
  aboutNode: boolean;
}

/** One read of a node's mailbox: when it was answered, and the messages it held. */
export interface MailboxRead {
  answeredAt: number;
  messages: { msgId: number; agbotId: string; timeSent: string }[];
}

export interface ExchangeWatch {
  /** The Exchange's base address through the watch (`http://127.0.0.1:<port>`; agents add `/v1`). */
  url: string;
  polls(node: string): Poll[];
  mailboxReads(node: string): MailboxRead[];
  close(): void;
}

export async function exchangeWatch(targetBaseUrl: string): Promise<ExchangeWatch> {
  const targetPort = Number(new URL(targetBaseUrl).port);
  const polls = new Map<string, Poll[]>();
  const reads = new Map<string, MailboxRead[]>();
  const note = <T>(map: Map<string, T[]>, node: string, value: T) =>
    map.set(node, [...(map.get(node) ?? []), value]);
  const server = createServer(async (req, res) => {
    const startedAt = Date.now();
    const body = await readAll(req);
    const path = req.url ?? '/';
    const answer = await forward(targetPort, req.method ?? 'GET', path, req.headers, body).catch(
      () => undefined,
    );
    if (!answer) {
      res.writeHead(502).end();
      return;
    }
    const node = callerOf(req.headers);
    const [org, id] = (node ?? '').split('/');
    if (node && answer.status < 300) {
      try {
        if (req.method === 'POST' && /^\/v1\/orgs\/[^/]+\/changes/.test(path)) {
          const { changes = [] } = JSON.parse(answer.body.toString()) as {
            changes?: { orgId: string; id: string }[];
          };
          note(polls, node, { startedAt, aboutNode: changes.some((c) => c.orgId === org && c.id === id) });
        } else if (req.method === 'GET' && path.startsWith(`/v1/orgs/${org}/nodes/${id}/msgs`)) {
          const { messages = [] } = JSON.parse(answer.body.toString()) as {
            messages?: MailboxRead['messages'];
          };
          note(reads, node, {
            answeredAt: Date.now(),
            messages: messages.map(({ msgId, agbotId, timeSent }) => ({ msgId, agbotId, timeSent })),
          });
        }
      } catch {
        // not a JSON answer: nothing to note
      }
    }
    res.writeHead(answer.status, answer.headers).end(answer.body);
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}`,
    polls: (node) => polls.get(node) ?? [],
    mailboxReads: (node) => reads.get(node) ?? [],
    close: () => server.close(),
  };
}
