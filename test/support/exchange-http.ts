import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Context } from 'aws-lambda';
import { dispatcher } from '#functions/dispatch';
import { FAMILIES } from '#functions/families';
import { handler as secretsLambda } from '#functions/secrets/lambda';
import type { LambdaHandler } from '#lib/http/dispatch';
import type { APIGatewayProxyEventV2 } from '#lib/http/lambda-types';
import { withCallLabel } from '#tables/client';

/**
 * What the server does with one request before its handler runs: `serve` it, or `drop` it
 * (the connection is closed without an answer, as when the caller died), or `serve-then-drop`
 * (the handler runs, its effect is stored, and the caller never hears of it).
 */
export type RequestFate = 'serve' | 'drop' | 'serve-then-drop';

export interface ExchangeRequest {
  method: string;
  /** The path without its query, as sent (still percent-encoded). */
  path: string;
  /** `org/id` of the Basic credentials, '' when anonymous. */
  caller: string;
}

/**
 * The Exchange's handlers behind a real HTTP server in the test's own process, each request handed
 * over in the event serverless-offline builds (`offlineEvent`, the path still percent-encoded) and
 * each answer sent as serverless-offline sends it, without serverless-offline's start-up. One
 * dispatcher serves every family's routes where the stack has a Lambda per family (each route
 * reaches its own family's only: test/unit/openapi/routes.test.ts); the secrets family keeps its
 * own Lambda, which reads names with `/`. What serverless-offline answers itself, before any
 * handler, is not here (test/e2e/fuzz/local-http-layer.test.ts). For the matrices
 * (test/support/in-process-exchange.ts) and tests of HTTP clients (the agbot, scripted nodes) that
 * need the real Exchange but not the stack; `fate` lets a test cut a client off at a chosen request.
 */
export async function startExchangeHttp(
  options: {
    fate?: (request: ExchangeRequest) => RequestFate;
    /** Put before each request's label (`withCallLabel`): a benchmark's probes counted apart. */
    labelPrefix?: string;
  } = {},
) {
  process.env.IS_OFFLINE = 'true';
  const routes = FAMILIES.flatMap((family) => family.routes);
  const everyRoute = dispatcher({ ...(FAMILIES[0] as (typeof FAMILIES)[number]), routes });
  const route = (path: string): LambdaHandler =>
    /^\/v1\/orgs\/[^/]+\/secrets(\/|$)/.test(path) ? secretsLambda : everyRoute;
  let served = 0;
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    try {
      const url = new URL(req.url ?? '/', 'http://exchange');
      const headers = headersOf(req);
      const request = { method: req.method ?? 'GET', path: url.pathname, caller: callerOf(headers) };
      const fate = options.fate?.(request) ?? 'serve';
      const payload = await readPayload(req);
      if (fate === 'drop') return void res.destroy();
      served += 1;
      const event = offlineEvent(request.method, url, headers, payload, served);
      const label = `${options.labelPrefix ?? ''}${request.method} ${routeShape(url.pathname)}`;
      const answer = await withCallLabel(label, () => route(url.pathname)(event, lambdaContext(served)));
      if (fate === 'serve-then-drop') return void res.destroy();
      const answerHeaders = { ...answer.headers };
      // serverless-offline types an answer that names no Content-Type (a 204) as JSON.
      if (!Object.keys(answerHeaders).some((name) => name.toLowerCase() === 'content-type'))
        answerHeaders['content-type'] = 'application/json';
      res.writeHead(answer.statusCode ?? 200, answerHeaders);
      res.end(answer.body ?? '');
    } catch (error) {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end((error as Error).message);
    }
  });
  // Node closes an idle connection after 5 s, and a client that reuses it in the same moment gets
  // ECONNRESET on its request. With the event loop lagging seconds (bench:scale's 10,000 nodes
  // in this process) that race lost a node's POST; a minute puts it out of reach.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    /** Without `/v1`, as serverless-offline's `baseUrl`. */
    baseUrl,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The event serverless-offline 13 hands an HTTP API (payload 2.0) Lambda, with the fields our handlers read. */
type OfflineEvent = APIGatewayProxyEventV2 & {
  rawQueryString: string;
  requestContext: { http: { method: string; path: string }; requestId: string };
};

/**
 * The request as serverless-offline 13 builds its event (LambdaProxyIntegrationEventV2): the path
 * still percent-encoded; header names in lower case, a repeated header's last value; a repeated
 * query key's values joined by commas (as API Gateway does); a body that names no Content-Type
 * typed application/json, a binary one (application/octet-stream, multipart/form-data) in base64;
 * no body as null.
 */
function offlineEvent(method: string, url: URL, headers: Record<string, string>, payload: Buffer, n: number) {
  let body: string | null = null;
  let isBase64Encoded = false;
  if (payload.length > 0) {
    isBase64Encoded = /application\/octet-stream|multipart\/form-data/.test(headers['content-type'] ?? '');
    body = payload.toString(isBase64Encoded ? 'base64' : 'utf8');
    headers['content-length'] ??= String(payload.length);
    headers['content-type'] ??= 'application/json';
  }
  const query = new Map<string, string>();
  for (const [name, value] of url.searchParams) {
    const earlier = query.get(name);
    query.set(name, earlier ? `${earlier},${value}` : value);
  }
  const event: OfflineEvent = {
    rawPath: url.pathname,
    rawQueryString: url.searchParams.toString(),
    headers,
    queryStringParameters: query.size === 0 ? undefined : Object.fromEntries(query),
    body,
    isBase64Encoded,
    requestContext: { http: { method, path: url.pathname }, requestId: `in-process-${n}` },
  };
  return event;
}

/** Header names in lower case, the last value of a repeated one (serverless-offline's parseHeaders). */
function headersOf(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2)
    headers[(req.rawHeaders[i] as string).toLowerCase()] = req.rawHeaders[i + 1] as string;
  return headers;
}

/** A collection's member names, replaced by `{}` in a path's shape. */
const COLLECTIONS = new Set([
  'orgs',
  'nodes',
  'agbots',
  'agreements',
  'msgs',
  'services',
  'patterns',
  'policies',
  'users',
  'secrets',
  'managementpolicies',
  'rollouts',
]);

/** The path with its ids as `{}`: the route a request's DynamoDB calls are counted under. */
export function routeShape(path: string): string {
  const segments = path.split('/');
  return segments
    .map((segment, i) => (i > 0 && COLLECTIONS.has(segments[i - 1] ?? '') ? '{}' : segment))
    .join('/');
}

function callerOf(headers: Record<string, string>): string {
  const header = headers.authorization ?? '';
  if (!header.startsWith('Basic ')) return '';
  const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
  return decoded.slice(0, decoded.indexOf(':'));
}

async function readPayload(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const lambdaContext = (n: number) =>
  ({
    functionName: 'exchange-in-process',
    awsRequestId: `in-process-${n}`,
    getRemainingTimeInMillis: () => 30_000,
  }) as Context;
