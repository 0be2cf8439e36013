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

export interface EndpointSpec<P, Q, B, T> {
  /** `false` for the few anonymous endpoints. */
  auth?: boolean;
  path?: z.ZodType<P>;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
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
  >(spec: EndpointSpec<P, Q, B, T>, overrides: Partial<Deps> = {}) {
    return buildEndpoint(spec, defaults, overrides);
  };
}

/**
 * Builds a Lambda handler that runs the upstream order of checks: authenticate (401), parse path
 * (400), authorize (403/404), parse query and body (400), then the handler. Errors become
 * `{code, msg}` JSON in one place.
 */
function buildEndpoint<P, Q, B, T>(spec: EndpointSpec<P, Q, B, T>, defaults: Deps, overrides: Partial<Deps>) {
  const deps: Deps = { ...defaults, ...overrides };
  const run = async (event: APIGatewayProxyEventV2): Promise<Response> => {
    const headers = event.headers ?? {};
    const caller =
      spec.auth === false
        ? ANONYMOUS
        : await deps.authenticate(headers.authorization ?? headers.Authorization);
    const path = spec.path ? parseWith(spec.path, event.pathParameters ?? {}, 'path') : ({} as P);
    const queryIn = { event: { ...event, headers }, caller, path, deps, query: {} as Q };
    const target = spec.authorize ? await spec.authorize(queryIn) : (undefined as T);
    const query = spec.query ? parseWith(spec.query, event.queryStringParameters ?? {}, 'query') : ({} as Q);
    const body = spec.body ? parseWith(spec.body, readBody(event), 'body') : (undefined as B);
    return spec.handle({ ...queryIn, query, body, target });
  };
  const handler = middy<APIGatewayProxyEventV2, Response>()
    .onError(handleError)
    .handler((event) => run(event));
  return Object.assign(handler, {
    /** The same endpoint with some dependencies replaced (tests: a fixed clock, say). */
    withDeps: (more: Partial<Deps>) => buildEndpoint(spec, defaults, { ...overrides, ...more }),
  });
}
