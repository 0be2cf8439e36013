import type * as Http from 'node:http';
import type * as Https from 'node:https';

/** A kept-alive connection the server closed before it took the request. */
class StaleConnection extends Error {
  constructor(override readonly cause: Error) {
    super(cause.message);
  }
}

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
  /**
   * Sends once more when the first try went out on a kept-alive connection that the server had
   * just closed as idle (its keep-alive timeout, 5 s in Node's server): such a request never
   * reached it (Node's http docs, `request.reusedSocket`). A server that died mid-request resets
   * too; sending again then risks no more than the caller's own retry of a failed request would.
   * Without this, a request after a pause of about the server's timeout failed with "socket hang
   * up" on a loaded machine.
   */
  async function send(
    method: string,
    url: URL,
    headers: Record<string, string>,
    body: string | undefined,
  ): Promise<HttpResponse> {
    try {
      return await sendOnce(method, url, headers, body);
    } catch (error) {
      if (!(error instanceof StaleConnection)) throw error;
      return sendOnce(method, url, headers, body).catch((again: Error) => {
        throw again instanceof StaleConnection ? again.cause : again;
      });
    }
  }
  function sendOnce(
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
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (err.name === 'AbortError') reject(new Error('timed out'));
        else if (req.reusedSocket && err.code === 'ECONNRESET') reject(new StaleConnection(err));
        else reject(err);
      });
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
