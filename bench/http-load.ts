import autocannon from 'autocannon';
import { basicAuthHeader } from '#lib/auth/basic';
import { BASE_NODES, nodeId, ORG } from './seed.ts';

/**
 * Requests/s and latency over HTTP (loopback, through serverless-offline) with 10 concurrent
 * clients. Each client (autocannon connection) works on a node of its own, so PUTs never race.
 */
export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
}

export const CONNECTIONS = 10;

export async function load(
  baseUrl: string,
  auth: { user: string; secret: string },
  method: 'GET' | 'PUT',
  durationSeconds: number,
): Promise<LoadResult> {
  let nextNode = 0;
  const result = await autocannon({
    url: baseUrl,
    connections: CONNECTIONS,
    duration: durationSeconds,
    initialContext: {},
    requests: [
      {
        method,
        setupRequest: (request, context: { node?: string }) => {
          context.node ??= nodeId(nextNode++ % BASE_NODES);
          const headers = { ...request.headers, authorization: basicAuthHeader(auth.user, auth.secret) };
          const path = `/v1/orgs/${ORG}/nodes/${context.node}`;
          if (method === 'GET') return { ...request, path, headers };
          const body = JSON.stringify({ name: context.node, arch: 'amd64' });
          return { ...request, path, body, headers: { ...headers, 'content-type': 'application/json' } };
        },
      },
    ],
  });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}
