import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Context } from 'aws-lambda';
import { dispatcher } from '#functions/dispatch';
import { FAMILIES } from '#functions/families';
import { handler as secretsLambda } from '#functions/secrets/lambda';
import type { LambdaHandler } from '#lib/http/dispatch';
import type { APIGatewayProxyEventV2 } from '#lib/http/lambda-types';

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
 * The Exchange's handlers behind a real HTTP server in the test's own process: every family's
 * route list dispatched as API Gateway and serverless-offline hand requests to the families'
 * Lambdas (the path still percent-encoded, as serverless-offline passes it), without
 * serverless-offline's start-up. For tests of HTTP clients (the agbot, scripted nodes) that need
 * the real Exchange but not the stack; `fate` lets a test cut a client off at a chosen request.
 */
export async function startExchangeHttp(options: { fate?: (request: ExchangeRequest) => RequestFate } = {}) {
  process.env.IS_OFFLINE = 'true';
  const routes = FAMILIES.flatMap((family) => family.routes);
  const everyRoute = dispatcher({ ...(FAMILIES[0] as (typeof FAMILIES)[number]), routes });
  const route = (path: string): LambdaHandler =>
    /^\/v1\/orgs\/[^/]+\/secrets(\/|$)/.test(path) ? secretsLambda : everyRoute;
  let served = 0;
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    try {
      const url = new URL(req.url ?? '/', 'http://exchange');
      const request = { method: req.method ?? 'GET', path: url.pathname, caller: callerOf(req) };
      const fate = options.fate?.(request) ?? 'serve';
      const body = await readBody(req);
      if (fate === 'drop') return void res.destroy();
      const event: APIGatewayProxyEventV2 = {
        rawPath: url.pathname,
        headers: Object.fromEntries(
          Object.entries(req.headers).map(([name, value]) => [name, String(value)]),
        ),
        queryStringParameters: url.search === '' ? undefined : Object.fromEntries(url.searchParams.entries()),
        body: body === '' ? undefined : body,
        isBase64Encoded: false,
        requestContext: { http: { method: request.method, path: url.pathname } },
      };
      served += 1;
      const answer = await route(url.pathname)(event, lambdaContext(served));
      if (fate === 'serve-then-drop') return void res.destroy();
      res.writeHead(answer.statusCode ?? 200, answer.headers ?? {});
      res.end(answer.body ?? '');
    } catch (error) {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end((error as Error).message);
    }
  });
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

function callerOf(req: IncomingMessage): string {
  const header = req.headers.authorization ?? '';
  if (!header.startsWith('Basic ')) return '';
  const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
  return decoded.slice(0, decoded.indexOf(':'));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const lambdaContext = (n: number) =>
  ({
    functionName: 'exchange-in-process',
    awsRequestId: `in-process-${n}`,
    getRemainingTimeInMillis: () => 30_000,
  }) as Context;
