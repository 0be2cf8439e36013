import middy from '@middy/core';
import type { z } from 'zod';
import type { Caller } from '#lib/auth/caller';
import type { ExchangeConfig } from '#lib/config';
import type { Clock } from '#lib/time';
import type { APIGatewayProxyEventV2 } from './lambda-types.ts';
import { handleError } from './on-error.ts';
import { readBody } from './read-body.ts';
import type { Response } from './responses.ts';
import { parseWith } from './validation.ts';

/** Side effects a handler may need, injected so tests can replace them without module mocking. */
export interface Deps {
  clock: Clock;
  config: () => ExchangeConfig;
  /** Resolves the caller from the Authorization header (401 when it cannot). */
  authenticate: (authorization: string | undefined) => Promise<Caller>;
}

interface Parsed<P, Q> {
  caller: Caller;
  path: P;
  query: Q;
  deps: Deps;
  event: APIGatewayProxyEventV2;
}

/**
 * The part of a route entry (lib/openapi/route.ts) a handler is built from: the schemas that
 * validate its path, query and body, and whether it is anonymous.
 */
export interface EndpointRoute<P, Q, B> {
  /** Absent only for the fallbacks, which serve no route. */
  operationId?: string;
  anonymous?: boolean;
  request?: { path?: z.ZodType<P>; query?: z.ZodType<Q>; body?: z.ZodType<B> };
}

interface EndpointSpec<P, Q, B, T> {
  /** `false` where the handler checks credentials itself (POST /v1/admin/dropdb's token); an anonymous route needs none. */
  auth?: boolean;
  /** Loads what the request touches and throws 403/404 when the caller may not; its result is `target`. */
  authorize?: (ctx: Parsed<P, Q>) => Promise<T> | T;
  handle: (ctx: Parsed<P, Q> & { body: B; target: T }) => Promise<Response> | Response;
}

const ANONYMOUS: Caller = { kind: 'user', org: '', id: '', fullId: '', admin: false, hubAdmin: false };
/**
 * The endpoint builder of a deployment whose side effects default to `defaults` (the Exchange's,
 * with its table behind `authenticate`, are in functions/endpoint.ts).
 */
export function endpointWith(defaults: Deps) {
  return function endpoint<
    P = Record<string, never>,
    Q = Record<string, never>,
    B = undefined,
    T = undefined,
  >(route: EndpointRoute<P, Q, B>, spec: EndpointSpec<P, Q, B, T>, overrides: Partial<Deps> = {}) {
    return buildEndpoint(route, spec, defaults, overrides);
  };
}

/**
 * Builds a Lambda handler that runs the upstream order of checks: authenticate (401), parse path
 * (400), authorize (403/404), parse query and body (400), then the handler. Errors become
 * `{code, msg}` JSON in one place.
 */
function buildEndpoint<P, Q, B, T>(
  route: EndpointRoute<P, Q, B>,
  spec: EndpointSpec<P, Q, B, T>,
  defaults: Deps,
  overrides: Partial<Deps>,
) {
  const deps: Deps = { ...defaults, ...overrides };
  const schemas = route.request ?? {};
  const anonymous = route.anonymous === true || spec.auth === false;
  const run = async (event: APIGatewayProxyEventV2): Promise<Response> => {
    const headers = event.headers ?? {};
    const caller = anonymous
      ? ANONYMOUS
      : await deps.authenticate(headers.authorization ?? headers.Authorization);
    const path = schemas.path ? parseWith(schemas.path, event.pathParameters ?? {}, 'path') : ({} as P);
    const queryIn = { event: { ...event, headers }, caller, path, deps, query: {} as Q };
    const target = spec.authorize ? await spec.authorize(queryIn) : (undefined as T);
    const query = schemas.query
      ? parseWith(schemas.query, event.queryStringParameters ?? {}, 'query')
      : ({} as Q);
    const body = schemas.body ? parseWith(schemas.body, readBody(event), 'body') : (undefined as B);
    return spec.handle({ ...queryIn, query, body, target });
  };
  const handler = middy<APIGatewayProxyEventV2, Response>()
    .onError(handleError)
    .handler((event) => run(event));
  return Object.assign(handler, {
    /** The route entry this endpoint was built from (a test checks each route's handler is its own). */
    route: route as EndpointRoute<unknown, unknown, unknown>,
    /** The same endpoint with some dependencies replaced (tests: a fixed clock, say). */
    withDeps: (more: Partial<Deps>) => buildEndpoint(route, spec, defaults, { ...overrides, ...more }),
  });
}
