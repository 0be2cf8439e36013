import { basicAuthHeader } from '#lib/auth/basic';
import { httpRequest, toHeaders } from '../../scripts/local/http-request.ts';

/**
 * A small HTTP client for the tests that call the Exchange over HTTP (e2e, the integration
 * matrices), on node:http (fetch refuses some ports).
 */
export interface Credentials {
  user: string;
  secret: string;
}

export interface RequestOptions {
  /** Basic `org/id:secret`; omitted = anonymous. */
  auth?: Credentials;
  /** An object is sent as JSON; a string is sent verbatim (malformed-JSON tests). */
  body?: unknown;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** Sent verbatim instead of `path` + `query` (no URL normalisation): hostile-path tests. */
  rawPath?: string;
  timeoutMs?: number;
}

export interface HttpResult {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary response shapes.
  body: any;
  text: string;
  headers: Headers;
}

export type Http = (method: string, path: string, options?: RequestOptions) => Promise<HttpResult>;

export function httpClient(baseUrl: string): Http {
  return async (method, path, options = {}) => {
    const url = new URL(path, baseUrl);
    for (const [name, value] of Object.entries(options.query ?? {})) url.searchParams.set(name, value);
    const headers: Record<string, string> = { ...options.headers };
    if (options.auth) headers.authorization = basicAuthHeader(options.auth.user, options.auth.secret);
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const timeoutMs = options.timeoutMs ?? 30_000;
    const response = await httpRequest(url, { method, headers, body, timeoutMs }, options.rawPath);
    const text = response.text;
    let parsed: unknown = text;
    if ((response.headers['content-type'] ?? '').startsWith('application/json') && text !== '') {
      try {
        parsed = JSON.parse(text);
      } catch {
        // leave the text: a test asserting JSON will fail on it
      }
    }
    return { status: response.status, body: parsed, text, headers: toHeaders(response.headers) };
  };
}
