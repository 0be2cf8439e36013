import type { Context } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dispatcher } from '#functions/dispatch';
import { basicAuthHeader } from '#lib/auth/basic';
import type { LambdaHandler } from '#lib/http/dispatch';
import type { APIGatewayProxyEventV2 } from '#lib/http/lambda-types';
import { json } from '#lib/http/responses';
import { routeList } from '#lib/openapi/route';

/**
 * A family's dispatcher picks the route as API Gateway would pick among exact routes and hands
 * the handler the path parameters the exact route would have carried; anything else gets the
 * catch-all's answers (the real ones: credentials first, then a JSON 404 or 400).
 */
process.env.EXCHANGE_ROOT_PW ??= 'root-test-password';
const rootPassword = process.env.EXCHANGE_ROOT_PW;
const root = { authorization: basicAuthHeader('root/root', rootPassword) };
const context = { awsRequestId: 'test' } as Context;

/** A handler that answers with its own name and the event's path parameters. */
const echo =
  (name: string): LambdaHandler =>
  async (event) =>
    json(200, { name, pathParameters: event.pathParameters ?? null });

/** Each route's handler module is the echo of its name. */
const family = routeList({
  folder: 'things',
  mounts: ['/v1/orgs/{organization}/things', '/v1/orgs/{organization}/things/{proxy+}'],
  tag: 'things',
  description: 'test routes',
  routes: [
    {
      method: 'GET',
      path: '/v1/orgs/{organization}/things',
      operationId: 'list',
      handler: async () => ({ handler: echo('list') }),
      summary: '',
      responses: {},
    },
    {
      method: 'GET',
      path: '/v1/orgs/{organization}/things/{thing}',
      operationId: 'get',
      handler: async () => ({ handler: echo('get') }),
      summary: '',
      responses: {},
    },
    {
      method: 'GET',
      path: '/v1/orgs/{organization}/things/special',
      operationId: 'special',
      handler: async () => ({ handler: echo('special') }),
      summary: '',
      responses: {},
    },
    {
      method: 'PUT',
      path: '/v1/orgs/{organization}/things/{thing}',
      operationId: 'put',
      handler: async () => ({ handler: echo('put') }),
      summary: '',
      responses: {},
    },
    {
      method: 'POST',
      path: '/v1/orgs/{organization}/things/{thing}/ping',
      operationId: 'ping',
      handler: async () => ({ handler: echo('ping') }),
      summary: '',
      responses: {},
    },
  ],
});

const handler = dispatcher(family);

async function call(method: string, rawPath: string, headers: Record<string, string> = {}) {
  const event: APIGatewayProxyEventV2 = {
    rawPath,
    headers,
    // What a {proxy+} mount carries; the dispatcher must not rely on it.
    pathParameters: { organization: 'wrong', proxy: 'wrong' },
    requestContext: { http: { method, path: rawPath } },
  };
  const response = await handler(event, context);
  return { status: response.statusCode, body: JSON.parse(response.body ?? 'null') };
}

describe('a family dispatcher', () => {
  // serverless-offline's events (rawPath still percent-encoded); API Gateway's are tested below.
  beforeEach(() => vi.stubEnv('IS_OFFLINE', 'true'));
  afterEach(() => vi.unstubAllEnvs());

  it('runs the route of that method and path, with its path parameters by name', async () => {
    expect(await call('GET', '/v1/orgs/acme/things')).toEqual({
      status: 200,
      body: { name: 'list', pathParameters: { organization: 'acme' } },
    });
    expect((await call('GET', '/v1/orgs/acme/things/t1')).body.name).toBe('get');
    expect((await call('PUT', '/v1/orgs/acme/things/t1')).body).toEqual({
      name: 'put',
      pathParameters: { organization: 'acme', thing: 't1' },
    });
    expect((await call('POST', '/v1/orgs/acme/things/t1/ping')).body.name).toBe('ping');
  });

  it('prefers a literal segment to a parameter, per method', async () => {
    expect((await call('GET', '/v1/orgs/acme/things/special')).body.name).toBe('special');
    expect((await call('PUT', '/v1/orgs/acme/things/special')).body).toEqual({
      name: 'put',
      pathParameters: { organization: 'acme', thing: 'special' },
    });
  });

  it('decodes each segment on its own: an encoded slash stays inside its parameter', async () => {
    expect((await call('GET', '/v1/orgs/ac%20me/things/a%2Fb')).body.pathParameters).toEqual({
      organization: 'ac me',
      thing: 'a/b',
    });
    expect((await call('GET', '/v1/orgs/acme/%74hings')).body.name).toBe('list');
  });

  it('answers HEAD like GET', async () => {
    expect((await call('HEAD', '/v1/orgs/acme/things/t1')).body.name).toBe('get');
  });

  it('gives an unknown path or method the catch-all answer: 401 without credentials, else 404', async () => {
    for (const [method, path] of [
      ['DELETE', '/v1/orgs/acme/things/t1'],
      ['GET', '/v1/orgs/acme/things/t1/ping'],
      ['GET', '/v1/orgs/acme/things/t1/'],
      ['GET', '/v1/orgs/acme/things//ping'],
      ['GET', '/v1/orgs/acme/things/t1/x/y'],
    ] as const) {
      expect(await call(method, path), `${method} ${path}`).toEqual({
        status: 401,
        body: { code: 'invalid-credentials', msg: expect.any(String) },
      });
      expect(await call(method, path, root), `${method} ${path}`).toEqual({
        status: 404,
        body: { code: 'not-found', msg: 'unrecognized route' },
      });
    }
  });

  it('answers a path that is not valid percent-encoding with a JSON 400, after credentials', async () => {
    expect((await call('GET', '/v1/orgs/acme/things/%E0%A4%A')).status).toBe(401);
    expect(await call('GET', '/v1/orgs/acme/things/%ZZ', root)).toEqual({
      status: 400,
      body: { code: 'invalid-input', msg: 'invalid input: the path is not valid percent-encoding' },
    });
  });

  it('on API Gateway (rawPath already decoded) does not decode again', async () => {
    vi.stubEnv('IS_OFFLINE', '');
    expect((await call('GET', '/v1/orgs/a%41/things/100%')).body.pathParameters).toEqual({
      organization: 'a%41',
      thing: '100%',
    });
  });
});
