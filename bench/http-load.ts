import autocannon from 'autocannon';
import { basicAuthHeader } from '#lib/auth/basic';
import { BASE_NODES, nodeId, ORG } from './seed.ts';

/**
 * Requests/s and latency over HTTP (loopback, through serverless-offline) with 10 concurrent
 * clients (autocannon connections); each client makes the request `requestFor` gives it.
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

interface LoadRequest {
  method: 'GET' | 'PUT' | 'POST';
  path: string;
  auth: { user: string; secret: string };
  body?: unknown;
}

/** `requestFor(client)` is asked once per client (0…9); the client repeats that request. */
export async function loadWith(
  baseUrl: string,
  durationSeconds: number,
  requestFor: (client: number) => LoadRequest,
): Promise<LoadResult> {
  let nextClient = 0;
  const result = await autocannon({
    url: baseUrl,
    connections: CONNECTIONS,
    duration: durationSeconds,
    initialContext: {},
    requests: [
      {
        setupRequest: (request, context: { request?: LoadRequest }) => {
          context.request ??= requestFor(nextClient++ % CONNECTIONS);
          const { method, path, auth, body } = context.request;
          const headers = { ...request.headers, authorization: basicAuthHeader(auth.user, auth.secret) };
          if (body === undefined) return { ...request, method, path, headers };
          const json = { ...headers, 'content-type': 'application/json' };
          return { ...request, method, path, body: JSON.stringify(body), headers: json };
        },
      },
    ],
  });
  // A non-2xx answer is a finding, not noise: say which statuses they were.
  if (result.non2xx > 0) {
    const statuses = Object.entries(result.statusCodeStats ?? {}).map(
      ([code, { count }]) => `${code}×${count}`,
    );
    console.log(`[bench] non-2xx answers: ${result.non2xx} (statuses ${statuses.join(', ')})`);
  }
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** GET or PUT of a node by its owner; each client works on a node of its own, so PUTs never race. */
export function load(
  baseUrl: string,
  auth: { user: string; secret: string },
  method: 'GET' | 'PUT',
  durationSeconds: number,
): Promise<LoadResult> {
  return loadWith(baseUrl, durationSeconds, (client) => {
    const node = nodeId(client % BASE_NODES);
    const path = `/v1/orgs/${ORG}/nodes/${node}`;
    return method === 'GET'
      ? { method, path, auth }
      : { method, path, auth, body: { name: node, arch: 'amd64' } };
  });
}

/** `GET /v1/admin/version`: no DynamoDB call, the HTTP stack's own ceiling. */
export function loadVersion(
  baseUrl: string,
  auth: { user: string; secret: string },
  durationSeconds: number,
) {
  return loadWith(baseUrl, durationSeconds, () => ({ method: 'GET', path: '/v1/admin/version', auth }));
}
