import type * as z from 'zod';

/**
 * One route list per resource family (`functions/<family>/routes.ts`): every endpoint's method,
 * path (spelled in full, so grepping a URL finds it), operationId, handler module, request
 * schemas and OpenAPI text. serverless.yml's functions (lib/openapi/serverless.ts), each family's
 * dispatcher (lib/http/dispatch.ts), every handler's validation (lib/http/endpoint.ts) and
 * GET /v1/openapi.json (lib/openapi/document.ts) are all built from these lists. A route names its
 * handler through a dynamic import, so reading a list (for serverless.yml or the document) loads
 * no handler.
 */
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ResponseDoc {
  description: string;
  /** JSON body; omitted for 204 and for bodies that are not JSON (see `text`). */
  schema?: z.ZodType;
  /** A text body: `true` for `text/plain` (the version, a key), else its media type (the installer's). */
  text?: boolean | `text/${string}`;
}

/** What a route's handler validates, and the document shows. */
interface RequestSchemas {
  path?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** A body the handler reads itself as text (a key or certificate, any content type): documented, never parsed as JSON. */
  rawBody?: z.ZodType;
}

/**
 * The handler's module, `() => import('./get-node.ts')`: its `handler` export serves the route.
 * Typed loosely on purpose: the handler's own type is built from this very entry.
 */
type HandlerModule = () => Promise<unknown>;

export interface RouteDoc {
  method: Method;
  /** API Gateway path template, in full: `/v1/orgs/{organization}/nodes/{node}`. */
  path: string;
  /** Unique across the API. */
  operationId: string;
  handler: HandlerModule;
  summary: string;
  description?: string;
  /** No credentials needed (the default is HTTP Basic). */
  anonymous?: boolean;
  request?: RequestSchemas;
  responses: Record<number, ResponseDoc>;
}

export interface ResourceDoc {
  /** The family's folder under functions/ (its Lambda is functions/<folder>/lambda.ts). */
  folder: string;
  /** The tag the routes are grouped under in the OpenAPI document. */
  tag: string;
  description: string;
  /**
   * The API Gateway paths (method ANY) that send requests to this family's one Lambda; its
   * dispatcher then picks the route. Each path costs one CloudFormation resource: keep to two,
   * usually the collection and `<collection>/{proxy+}`. The most specific path wins at the
   * gateway, so a family nested under another's `{proxy+}` still gets its own requests.
   */
  mounts: string[];
  /** Response schemas shown under their own name in `components.schemas` (others are named after their route). */
  components?: Record<string, z.ZodType>;
  /** Request bodies by name (unnamed ones are called `<OperationId>Request`). */
  requests?: Record<string, z.ZodType>;
  routes: readonly RouteDoc[];
}

/** A family's routes by operationId, each with its own schema types (what a handler takes its schemas from). */
type Operations<R extends readonly RouteDoc[]> = {
  [K in R[number]['operationId']]: Extract<R[number], { operationId: K }>;
};

/**
 * Declares a family's route list. `operations` holds the same entries by operationId, keeping
 * each one's schema types, so a handler is built from its own entry:
 * `endpoint(nodesRoutes.operations.getNode, …)`.
 */
export function routeList<const R extends readonly RouteDoc[]>(
  list: ResourceDoc & { routes: R },
): ResourceDoc & { routes: R; operations: Operations<R> } {
  const operations = Object.fromEntries(list.routes.map((route) => [route.operationId, route]));
  return { ...list, operations: operations as Operations<R> };
}
