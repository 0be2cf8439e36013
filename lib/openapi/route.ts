import type * as z from 'zod';

/**
 * How a resource folder describes its routes for the OpenAPI document
 * (`functions/<resource>/openapi.ts`). The request schemas are the very ones the handlers
 * validate with; the response schemas describe what the handlers send.
 */
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ResponseDoc {
  description: string;
  /** JSON body; omitted for 204 and for bodies that are not JSON (see `text`). */
  schema?: z.ZodType;
  /** A `text/plain` body (only GET /v1/admin/version). */
  text?: boolean;
}

export interface RouteDoc {
  method: Method;
  /** API Gateway path template, as in functions.yml: `/v1/orgs/{organization}/nodes/{node}`. */
  path: string;
  /** Unique; the function name in functions.yml. */
  operationId: string;
  summary: string;
  description?: string;
  /** No credentials needed (the default is HTTP Basic). */
  anonymous?: boolean;
  request?: { path?: z.ZodType; query?: z.ZodType; body?: z.ZodType };
  responses: Record<number, ResponseDoc>;
}

export interface ResourceDoc {
  /** The tag the routes are grouped under. */
  tag: string;
  description: string;
  /** Response schemas shown under their own name in `components.schemas` (others are named after their route). */
  components?: Record<string, z.ZodType>;
  /** Request bodies by name (unnamed ones are called `<OperationId>Request`). */
  requests?: Record<string, z.ZodType>;
  routes: RouteDoc[];
}
