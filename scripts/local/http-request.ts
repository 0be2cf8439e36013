import { type IncomingHttpHeaders, request } from 'node:http';

/**
 * One HTTP request over node:http. Used instead of `fetch` wherever the port is chosen by a user:
 * `fetch` refuses the WHATWG "bad ports" (4190, 6000, 10080, ...) even on loopback. It also sends
 * the path exactly as given (no URL normalisation of `..` or percent-escapes), which the fuzz
 * tests need.
 */
interface PlainRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** The whole exchange, connect to last byte; default 30 s. */
  timeoutMs?: number;
}

export interface PlainResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** `target` is a full URL, or an origin (`http://host:port`) with `rawPath` sent verbatim. */
export function httpRequest(target: string | URL, options: PlainRequest = {}, rawPath?: string) {
  const url = new URL(target);
  return new Promise<PlainResponse>((resolve, reject) => {
    const timeoutMs = options.timeoutMs ?? 30_000;
    const headers: Record<string, string> = { ...options.headers };
    // node:http frames a GET or DELETE body with neither Content-Length nor chunking: the server
    // would read the body as the next request. Always say how long the body is.
    if (options.body !== undefined) headers['content-length'] = String(Buffer.byteLength(options.body));
    let req: ReturnType<typeof request>;
    try {
      req = request({
        host: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port || 80,
        path: rawPath ?? `${url.pathname}${url.search}`,
        method: options.method ?? 'GET',
        headers,
      });
    } catch (error) {
      // node:http refuses some paths and header values before sending anything.
      reject(error);
      return;
    }
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    req.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.once('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.once('error', reject);
      response.once('end', () => {
        clearTimeout(timer);
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          text: Buffer.concat(chunks).toString('utf8'),
        });
      });
    });
    req.end(options.body);
  });
}

/** The same headers as a WHATWG `Headers` (what callers used to get from fetch). */
export function toHeaders(incoming: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}
