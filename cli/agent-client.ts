import { nonEmpty } from './config.ts';
import type { Ctx } from './context.ts';
import { EXIT, fatal } from './errors.ts';
import { jsonBody } from './exchange-client.ts';
import { type HttpResult, send, TransportError } from './http.ts';

/**
 * The agent's local API (`HORIZON_URL`, default http://localhost:8510): no auth, no retries, no
 * timeout unless HZN_HTTP_TIMEOUT; a connection failure is upstream's exit-5 hint (docs/hzn-behaviour.md#http).
 */
const DEFAULT_HORIZON_URL = 'http://localhost:8510';

/** GET /node of an agent with no registration. */
const UNCONFIGURED_NODE = {
  id: '',
  organization: null,
  pattern: null,
  clusterNamespace: null,
  configstate: { state: 'unconfigured', last_update_time: 0 },
};

export class AgentClient {
  readonly baseUrl: string;
  constructor(readonly ctx: Ctx) {
    this.baseUrl = (nonEmpty(ctx.env.HORIZON_URL) ?? DEFAULT_HORIZON_URL).replace(/\/+$/, '');
  }

  url(path: string): string {
    return `${this.baseUrl}/${path}`;
  }

  async call(method: string, path: string, body?: unknown): Promise<HttpResult> {
    const url = this.url(path);
    const seconds = Number.parseInt(this.ctx.env.HZN_HTTP_TIMEOUT ?? '', 10);
    try {
      return await send(this.ctx, method, url, { body, timeoutMs: seconds > 0 ? seconds * 1000 : undefined });
    } catch (err) {
      if (!(err instanceof TransportError)) throw err;
      throw fatal(EXIT.HTTP_ERROR, unreachable(this.ctx, method, url, err.message));
    }
  }

  /** A call that must answer one of `ok`; else upstream's message (GET without the body). */
  async expect(method: string, path: string, ok: number[], body?: unknown): Promise<HttpResult> {
    const result = await this.call(method, path, body);
    if (ok.includes(result.status)) return result;
    const url = this.url(path);
    if (method === 'GET') throw fatal(EXIT.HTTP_ERROR, `bad HTTP code from GET ${url}: ${result.status}`);
    throw fatal(EXIT.HTTP_ERROR, `bad HTTP code ${result.status} from ${method} ${url}: ${result.text}`);
  }

  /**
   * GET /node. Once an unregistration has completed the agent answers 404 (docs/agent.md); that is
   * an unconfigured node, shown the way the agent shows one before its first registration.
   */
  async node<T = Record<string, unknown>>(): Promise<T> {
    const result = await this.expect('GET', 'node', [200, 404]);
    if (result.status === 404) return structuredClone(UNCONFIGURED_NODE) as T;
    return jsonBody<T>(result, this.url('node'));
  }

  async getJson<T = unknown>(path: string): Promise<T> {
    const result = await this.expect('GET', path, [200]);
    return jsonBody<T>(result, this.url(path));
  }
}

function unreachable(ctx: Ctx, method: string, url: string, cause: string): string {
  const head = `Can't connect to the Horizon REST API to run ${method} ${url}.`;
  if (nonEmpty(ctx.env.HORIZON_URL))
    return `${head} Check that HORIZON_URL (${ctx.env.HORIZON_URL}) is the URL of a running Horizon agent. Specific error is: ${cause}`;
  return `${head} Run 'systemctl status horizon' to check if the Horizon agent is running. Or run 'curl ${DEFAULT_HORIZON_URL}/status' to check the Horizon agent status. Or set HORIZON_URL to connect to another local port that is connected to a remote Horizon agent via a ssh tunnel. Specific error is: ${cause}`;
}
