import { basicAuthHeader } from '#lib/auth/basic';

/** A small HTTP client for the e2e tests, on fetch. */
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
    const response = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(30_000) });
    const text = await response.text();
    let parsed: unknown = text;
    if ((response.headers.get('content-type') ?? '').startsWith('application/json') && text !== '') {
      try {
        parsed = JSON.parse(text);
      } catch {
        // leave the text: a test asserting JSON will fail on it
      }
    }
    return { status: response.status, body: parsed, text, headers: response.headers };
  };
}
