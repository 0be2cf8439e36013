import type * as z from 'zod';

/**
 * One route list per resource family (`functions/<family>/routes.ts`): every endpoint's method,
 * path, operationId, handler module and OpenAPI text. serverless.yml's functions
 * (lib/openapi/serverless.ts), each family's dispatcher (lib/http/dispatch.ts) and
 * GET /v1/openapi.json (lib/openapi/document.ts) are all built from these lists. The request
 * schemas are the very ones the handlers validate with; the response schemas describe what the
 * handlers send. Strings and zod only: no handler is imported here.
 */
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ResponseDoc {
  description: string;
  /** JSON body; omitted for 204 and for bodies that are not JSON (see `text`). */
  schema?: z.ZodType;
  /** A `text/plain` body (only GET /v1/admin/version). */
  text?: boolean;
}

export interface RouteDoc<H extends string = string> {
  method: Method;
  /** API Gateway path template: `/v1/orgs/{organization}/nodes/{node}`. */
  path: string;
  /** Unique across the API. */
  operationId: string;
  /** The handler's module under functions/, without `.ts`: `nodes/get-node` is functions/nodes/get-node.ts. */
  handler: H;
  summary: string;
  description?: string;
  /** No credentials needed (the default is HTTP Basic). */
  anonymous?: boolean;
  request?: { path?: z.ZodType; query?: z.ZodType; body?: z.ZodType };
  responses: Record<number, ResponseDoc>;
}

export interface ResourceDoc<H extends string = string> {
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
  routes: RouteDoc<H>[];
}

/** Declares a route list, keeping the handler names as literal types so each Lambda must map them all. */
export const routeList = <const H extends string>(list: ResourceDoc<H>): ResourceDoc<H> => list;
