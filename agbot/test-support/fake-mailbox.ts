import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A message as the Exchange lists it in an agbot's mailbox. */
export interface FakeAgbotMessage {
  msgId: number;
  nodeId: string;
  nodePubKey: string;
  message: string;
  timeSent: string;
}

/**
 * An agbot's mailbox on loopback, paged as the Exchange pages it: `GET …/msgs?maxmsgs=N&after=ID`
 * answers the oldest messages past `after`, at most `min(N, 100)` (404 when none), `DELETE
 * …/msgs/{id}` removes one. Every list read's query is recorded.
 */
export async function startFakeMailbox(org: string, id: string) {
  const messages: FakeAgbotMessage[] = [];
  const reads: { maxmsgs: string | null; after: string | null }[] = [];
  const base = `/v1/orgs/${org}/agbots/${id}/msgs`;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const send = (status: number, body?: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(body === undefined ? '' : JSON.stringify(body));
    };
    if (req.method === 'GET' && url.pathname === base) {
      const maxmsgs = url.searchParams.get('maxmsgs');
      const after = url.searchParams.get('after');
      reads.push({ maxmsgs, after });
      const limit = Math.min(Number(maxmsgs) > 0 ? Number(maxmsgs) : 100, 100);
      const page = messages.filter((m) => m.msgId > Number(after ?? 0)).slice(0, limit);
      return send(page.length > 0 ? 200 : 404, { messages: page, lastIndex: 0 });
    }
    if (req.method === 'DELETE' && url.pathname.startsWith(`${base}/`)) {
      const msgId = Number(url.pathname.slice(base.length + 1));
      const at = messages.findIndex((m) => m.msgId === msgId);
      if (at >= 0) messages.splice(at, 1);
      return send(204);
    }
    return send(404, { code: 'not-found', msg: 'unrecognized route' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    messages,
    reads,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
