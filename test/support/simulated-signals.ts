import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import { handler as signalChannel } from '#functions/signals/lambda';
import { basicAuthHeader } from '#lib/auth/basic';
import { MAIL_NOW, SIGNALS_ACCEPT_HEADER } from '#lib/signals/address';

/**
 * The signal channel for simulated nodes (bench:scale; docs/signals.md). Each node connects as the
 * agent does, through the channel's own `$connect` handler (functions/signals/lambda.ts: its
 * credentials checked, its connection and liveness recorded), and a loopback server stands in for
 * API Gateway's management API: the signal dispatcher's posts (functions/signals/dispatch.ts, run
 * by the stream consumer) reach it, and `onWake` hears which node each woke and with what: each
 * node asks for "mail now" as the agent does, so a wake for its mailbox alone is `mail` (it reads
 * its mailbox without a feed read), any other `look`. So a simulated node reads when and because
 * the stack would wake it: after the dispatcher has numbered the rows it is woken for, and never
 * for a row that wakes nobody.
 *
 * With `announce`, the same server is also the channel's WebSocket end for real clients (an agent
 * beside the simulated nodes: test/integration/rollouts/simulator-honesty.test.ts): the Exchange
 * announces it (EXCHANGE_SIGNALS_URL), an upgrade runs `$connect` with the request's own headers,
 * and a post reaches the socket, as serverless-offline's emulation does.
 */
export interface SimulatedSignals {
  /** Opens the node's channel (`$connect` with its credentials). */
  connect(node: { org: string; id: string; creds: { user: string; secret: string } }): Promise<void>;
  /** "look now" and "mail now" posts received so far, for simulated nodes and real clients. */
  posts(): number;
  close(): Promise<void>;
}

type Wake = (node: string, signal: 'look' | 'mail') => void;

export async function startSimulatedSignals(
  onWake: Wake,
  options: {
    announce?: boolean;
    /** Told each signal posted to a real client's socket, before it is sent. */
    onSocketSignal?: (message: string) => void;
  } = {},
): Promise<SimulatedSignals> {
  const nodeOf = new Map<string, string>();
  const sockets = new Map<string, WebSocket>();
  let posts = 0;
  let next = 0;
  const server = createServer((request, response) => {
    const connectionId = decodeURIComponent(String(request.url).split('/@connections/')[1] ?? '');
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const node = nodeOf.get(connectionId);
      const socket = sockets.get(connectionId);
      const body = Buffer.concat(chunks).toString();
      if (request.method === 'POST' && (node || socket)) posts += 1;
      if (request.method === 'POST' && node) onWake(node, body === MAIL_NOW ? 'mail' : 'look');
      if (request.method === 'POST' && socket) {
        options.onSocketSignal?.(body);
        socket.send(body);
      }
      if (request.method === 'DELETE') socket?.close();
      // A connection it does not know is gone, as API Gateway answers.
      const known = node !== undefined || socket !== undefined;
      response.writeHead(known ? (request.method === 'DELETE' ? 204 : 200) : 410).end();
    });
  });
  const upgrades = new WebSocketServer({ noServer: true });
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const connectionId = `ws-${next++}`;
    const headers = Object.fromEntries(
      Object.entries(request.headers).map(([name, value]) => [name, String(value)]),
    );
    void signalChannel({ requestContext: { routeKey: '$connect', connectionId }, headers }).then((answer) => {
      if (answer.statusCode !== 200) {
        socket.end(`HTTP/1.1 ${answer.statusCode} Refused\r\nConnection: close\r\n\r\n`);
        return;
      }
      upgrades.handleUpgrade(request, socket, head, (ws) => {
        sockets.set(connectionId, ws);
        ws.on('close', () => {
          sockets.delete(connectionId);
          void signalChannel({ requestContext: { routeKey: '$disconnect', connectionId } });
        });
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const previous = {
    management: process.env.EXCHANGE_SIGNALS_MANAGEMENT_URL,
    url: process.env.EXCHANGE_SIGNALS_URL,
  };
  process.env.EXCHANGE_SIGNALS_MANAGEMENT_URL = `http://127.0.0.1:${port}`;
  if (options.announce) process.env.EXCHANGE_SIGNALS_URL = `ws://127.0.0.1:${port}`;
  const restore = (name: string, value: string | undefined) => {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  };
  return {
    async connect({ org, id, creds }) {
      const connectionId = `sim-${nodeOf.size}`;
      nodeOf.set(connectionId, `${org}/${id}`);
      const answer = await signalChannel({
        requestContext: { routeKey: '$connect', connectionId },
        headers: {
          authorization: basicAuthHeader(creds.user, creds.secret),
          [SIGNALS_ACCEPT_HEADER]: 'mail',
        },
      });
      if (answer.statusCode !== 200) {
        nodeOf.delete(connectionId);
        throw new Error(`${org}/${id}: $connect answered ${answer.statusCode}`);
      }
    },
    posts: () => posts,
    async close() {
      restore('EXCHANGE_SIGNALS_MANAGEMENT_URL', previous.management);
      if (options.announce) restore('EXCHANGE_SIGNALS_URL', previous.url);
      for (const socket of sockets.values()) socket.terminate();
      upgrades.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
