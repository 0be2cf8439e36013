/**
 * The operations of our OpenAPI document as served (GET /v1/openapi.json), so that every route
 * the server documents is fuzzed, including routes added after this suite was written.
 */
export interface Operation {
  method: string;
  /** `/v1/orgs/{organization}/nodes/{node}` */
  template: string;
  pathParams: string[];
  queryParams: string[];
  hasBody: boolean;
  anonymous: boolean;
  /** A write, or a read that stores something: generated requests must never succeed. */
  writes: boolean;
}

interface DocumentOperation {
  parameters?: { name: string; in: string }[];
  requestBody?: unknown;
  security?: unknown[];
}

/** Reads that store something (a one-time token): treated as writes. */
const STORING_READS = new Set(['GET /v1/admin/dropdb/token']);
/** POSTs that only check something (a user's password): they may succeed. */
const CHECKING_POSTS = new Set(['POST /v1/orgs/{organization}/users/{username}/confirm']);
const HTTP_METHODS = new Set(['get', 'put', 'post', 'patch', 'delete']);

export function operationsOf(document: { paths: Record<string, Record<string, unknown>> }): Operation[] {
  const operations: Operation[] = [];
  for (const [template, entries] of Object.entries(document.paths)) {
    for (const [method, raw] of Object.entries(entries)) {
      if (!HTTP_METHODS.has(method)) continue;
      const op = raw as DocumentOperation;
      const params = op.parameters ?? [];
      const upper = method.toUpperCase();
      const key = `${upper} ${template}`;
      operations.push({
        method: upper,
        template,
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: params.filter((p) => p.in === 'query').map((p) => p.name),
        hasBody: op.requestBody !== undefined,
        anonymous: Array.isArray(op.security) && op.security.length === 0,
        writes: upper === 'GET' ? STORING_READS.has(key) : !CHECKING_POSTS.has(key),
      });
    }
  }
  return operations;
}

/** The template with each `{param}` replaced by its (already encoded) value. */
export const fillTemplate = (template: string, values: Record<string, string>): string =>
  template.replace(/\{([^}]+)\}/g, (_, name: string) => values[name] ?? name);
