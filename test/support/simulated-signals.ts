import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handler as signalChannel } from '#functions/signals/lambda';
import { basicAuthHeader } from '#lib/auth/basic';

/**
 * The signal channel for simulated nodes (bench:scale; docs/signals.md). Each node connects as the
 * agent does, through the channel's own `$connect` handler (functions/signals/lambda.ts: its
 * credentials checked, its connection and liveness recorded), and a loopback server stands in for
 * API Gateway's management API: the signal dispatcher's "look now" posts (functions/signals/
 * dispatch.ts, run by the stream consumer) reach it, and `onWake` hears which node each woke.
 * So a simulated node reads when and because the stack would wake it: after the dispatcher has
 * numbered the rows it is woken for, and never for a row that wakes nobody.
 */
export interface SimulatedSignals {
  /** Opens the node's channel (`$connect` with its credentials). */
  connect(node: { org: string; id: string; creds: { user: string; secret: string } }): Promise<void>;
  /** "look now" posts received so far. */
  posts(): number;
  close(): Promise<void>;
}

export async function startSimulatedSignals(onWake: (node: string) => void): Promise<SimulatedSignals> {
  const nodeOf = new Map<string, string>();
  let posts = 0;
  const server = createServer((request, response) => {
    const connectionId = decodeURIComponent(String(request.url).split('/@connections/')[1] ?? '');
    request.resume();
    request.on('end', () => {
      const node = nodeOf.get(connectionId);
      if (request.method === 'POST' && node) {
        posts += 1;
        onWake(node);
      }
      // A connection it does not know is gone, as API Gateway answers.
      response.writeHead(node ? (request.method === 'DELETE' ? 204 : 200) : 410).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const previous = process.env.EXCHANGE_SIGNALS_MANAGEMENT_URL;
  process.env.EXCHANGE_SIGNALS_MANAGEMENT_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    async connect({ org, id, creds }) {
      const connectionId = `sim-${nodeOf.size}`;
      nodeOf.set(connectionId, `${org}/${id}`);
      const answer = await signalChannel({
        requestContext: { routeKey: '$connect', connectionId },
        headers: { authorization: basicAuthHeader(creds.user, creds.secret) },
      });
      if (answer.statusCode !== 200) {
        nodeOf.delete(connectionId);
        throw new Error(`${org}/${id}: $connect answered ${answer.statusCode}`);
      }
    },
    posts: () => posts,
    async close() {
      if (previous === undefined) delete process.env.EXCHANGE_SIGNALS_MANAGEMENT_URL;
      else process.env.EXCHANGE_SIGNALS_MANAGEMENT_URL = previous;
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
