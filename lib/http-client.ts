import type * as Http from 'node:http';
import type * as Https from 'node:https';

export interface HttpResponse {
  status: number;
  text: string;
  headers: Http.IncomingHttpHeaders;
}

/**
 * One HTTP request with node:http(s) and keep-alive connections: the agent's and the agbot's
 * client of the Exchange. The agent avoids fetch on purpose: loading undici costs about 10 MB of
 * resident memory, an eighth of the agent's budget.
 *
 * The modules are taken with process.getBuiltinModule, never with an ES `import`: the shipped
 * bundle is an ES module, and importing node:http there builds its ES namespace, which reads the
 * lazy `http.WebSocket` export and so loads undici after all (+10 MB). node:https (TLS, +4 MB)
 * is loaded only when the Exchange URL is https.
 */
export function createHttp(timeoutMs: number) {
  const http = process.getBuiltinModule('node:http') as typeof Http;
  let https: { module: typeof Https; agent: Https.Agent } | undefined;
  const httpAgent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  const secure = () => {
    if (!https) {
      const module = process.getBuiltinModule('node:https') as typeof Https;
      https = { module, agent: new module.Agent({ keepAlive: true, maxSockets: 4 }) };
    }
    return https;
  };
  function send(
    method: string,
    url: URL,
    headers: Record<string, string>,
    body: string | undefined,
  ): Promise<HttpResponse> {
    const tls = url.protocol === 'https:' ? secure() : undefined;
    const request = tls ? tls.module.request : http.request;
    return new Promise((resolve, reject) => {
      const req = request(
        url,
        {
          method,
          headers:
            body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          agent: tls ? tls.agent : httpAgent,
          signal: AbortSignal.timeout(timeoutMs),
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              text: Buffer.concat(chunks).toString('utf8'),
              headers: res.headers,
            }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', (err) => reject(err.name === 'AbortError' ? new Error('timed out') : err));
      req.end(body);
    });
  }
  /** Closes idle keep-alive connections (shutdown). */
  const close = () => {
    httpAgent.destroy();
    https?.agent.destroy();
  };
  return { send, close };
}
