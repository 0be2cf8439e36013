import { type Ctx, verbose } from './context.ts';

/**
 * One HTTP exchange with upstream's transport rules (docs/hzn-behaviour.md#http): JSON bodies are sent with
 * `Content-Type: application/json`, string bodies (a PEM) raw; transport errors and 408/429/502/503/504
 * are retried when the caller allows; `--dry-run` skips every write and answers 201/204.
 */
export interface HttpResult {
  status: number;
  text: string;
}

export interface SendOptions {
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string as is. */
  body?: unknown;
  retries?: number;
  retryIntervalMs?: number;
  timeoutMs?: number;
}

/** Nothing answered (refused, reset, timed out, DNS): the message is the cause. */
export class TransportError extends Error {
  override name = 'TransportError';
}

const RETRIED_STATUSES = new Set([408, 429, 502, 503, 504]);

export async function send(
  ctx: Ctx,
  method: string,
  url: string,
  options: SendOptions = {},
): Promise<HttpResult> {
  verbose(ctx, `${method} ${url}`);
  if (ctx.dryRun && method !== 'GET') {
    verbose(ctx, 'dry run: the request is not sent');
    return { status: method === 'DELETE' ? 204 : 201, text: '' };
  }
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  let body: string | undefined;
  if (typeof options.body === 'string') body = options.body;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const retries = options.retries ?? 0;
  for (let attempt = 0; ; attempt += 1) {
    const last = attempt >= retries;
    try {
      const response = await fetch(url, {
        method,
        headers,
        body,
        signal: options.timeoutMs ? AbortSignal.timeout(options.timeoutMs) : undefined,
      });
      const text = await response.text();
      verbose(ctx, `HTTP code: ${response.status}`);
      if (last || !RETRIED_STATUSES.has(response.status)) return { status: response.status, text };
    } catch (err) {
      if (last) throw new TransportError(causeOf(err));
    }
    await ctx.io.sleep(options.retryIntervalMs ?? 0);
  }
}

/** fetch wraps the socket error in `cause`; its code (ECONNREFUSED...) is the useful part. */
function causeOf(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code) return `${cause.code}${cause.message ? ` (${cause.message})` : ''}`;
  if (cause?.message) return cause.message;
  return err instanceof Error ? err.message : String(err);
}
