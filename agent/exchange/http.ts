import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

export interface HttpResponse {
  status: number;
  text: string;
}

/**
 * One HTTP request with node:http(s) and keep-alive connections. The agent avoids fetch on
 * purpose: loading undici costs about 14 MB of resident memory, a fifth of the agent's budget.
 */
export function createHttp(timeoutMs: number) {
  const agents = {
    'http:': new HttpAgent({ keepAlive: true, maxSockets: 4 }),
    'https:': new HttpsAgent({ keepAlive: true, maxSockets: 4 }),
  };
  function send(
    method: string,
    url: URL,
    headers: Record<string, string>,
    body: string | undefined,
  ): Promise<HttpResponse> {
    const https = url.protocol === 'https:';
    const request = https ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = request(
        url,
        {
          method,
          headers:
            body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          agent: agents[https ? 'https:' : 'http:'],
          signal: AbortSignal.timeout(timeoutMs),
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
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
    agents['http:'].destroy();
    agents['https:'].destroy();
  };
  return { send, close };
}
