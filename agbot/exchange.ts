import { createHttp } from '../agent/exchange/http.ts';

/** The Exchange answered with a status the agbot did not expect. */
export class AgbotExchangeError extends Error {
  constructor(
    readonly status: number,
    readonly call: string,
    detail: string,
  ) {
    super(`${call}: HTTP ${status}${detail ? ` ${detail}` : ''}`);
    this.name = 'AgbotExchangeError';
  }
}

export type AgbotExchange = ReturnType<typeof agbotExchange>;

/**
 * The agbot's calls to the Exchange, as `<org>/<id>` with its token (Basic auth), over the same
 * keep-alive node:http client the agent uses. Each method names one upstream route.
 */
export function agbotExchange(options: {
  baseUrl: string;
  org: string;
  id: string;
  token: string;
  timeoutMs: number;
}) {
  const http = createHttp(options.timeoutMs);
  const authorization = `Basic ${Buffer.from(`${options.org}/${options.id}:${options.token}`).toString('base64')}`;
  const self = `/orgs/${encodeURIComponent(options.org)}/agbots/${encodeURIComponent(options.id)}`;

  async function call(
    method: string,
    path: string,
    body?: unknown,
    expected: number[] = [200, 201],
  ): Promise<unknown> {
    const headers: Record<string, string> = { accept: 'application/json', authorization };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await http.send(
      method,
      new URL(`${options.baseUrl}${path}`),
      headers,
      body === undefined ? undefined : JSON.stringify(body),
    );
    if (!expected.includes(response.status)) {
      throw new AgbotExchangeError(response.status, `${method} ${path}`, response.text.slice(0, 200));
    }
    return response.text === '' ? undefined : JSON.parse(response.text);
  }

  return {
    call,
    /** Publishes the messaging public key on the agbot's own record (nodes verify against it). */
    publishPublicKey: (publicKey: string) => call('PATCH', self, { publicKey }),
    heartbeat: () => call('POST', `${self}/heartbeat`),
    close: () => http.close(),
  };
}
