import type { Http, HttpResult } from './http.ts';
import { type JsonSchema, SchemaChecker } from './json-schema.ts';
import { checkResponse } from './openapi.ts';

/**
 * Checks answers against OUR document, as the server serves it (GET /v1/openapi.json), and
 * against upstream's: the operation must be documented, the status must be one of its documented
 * ones, and the body must fit the schema documented for that status.
 */
export interface OurDocument {
  paths: Record<string, Record<string, { responses: Record<string, ResponseEntry> }>>;
  components: { schemas: Record<string, JsonSchema> };
}

interface ResponseEntry {
  content?: Record<string, { schema: JsonSchema }>;
}

const segments = (path: string) => path.split('/').filter(Boolean);

/** The document's template for a concrete path (`/v1/orgs/o/nodes/n` → `/v1/orgs/{organization}/nodes/{node}`). */
export function templateOf(document: OurDocument, path: string): string | undefined {
  const wanted = segments(new URL(path, 'http://x').pathname).map(decodeURIComponent);
  let best: { template: string; literals: number } | undefined;
  for (const template of Object.keys(document.paths)) {
    const parts = segments(template);
    if (parts.length !== wanted.length) continue;
    const fits = parts.every((part, i) => part.startsWith('{') || part === wanted[i]);
    if (!fits) continue;
    const literals = parts.filter((part) => !part.startsWith('{')).length;
    if (!best || literals > best.literals) best = { template, literals };
  }
  return best?.template;
}

/** Violations of our document by one answer (`path` concrete or a template). */
export function ourProblems(
  document: OurDocument,
  method: string,
  path: string,
  result: HttpResult,
): string[] {
  const template = templateOf(document, path);
  const operation = template ? document.paths[template]?.[method.toLowerCase()] : undefined;
  if (!template || !operation) return [`${method} ${path} is not in our OpenAPI document`];
  const entry = operation.responses[String(result.status)];
  if (!entry) return [`${method} ${template} does not document status ${result.status}`];
  if (!entry.content)
    return result.text === '' ? [] : [`status ${result.status} is documented without a body`];
  const contentType = (result.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
  const media = entry.content[contentType];
  if (!media) return [`content type ${contentType} is not documented for status ${result.status}`];
  const body = contentType === 'application/json' ? result.body : result.text;
  return new SchemaChecker(document.components.schemas).check(media.schema, body);
}

/**
 * Violations of both documents by a 2xx answer (none for other statuses). Upstream's document
 * does not describe `?attribute=` answers (`{attribute, value}`), so those are checked against ours only.
 */
export function bothProblems(
  document: OurDocument,
  method: string,
  path: string,
  result: HttpResult,
  query: Record<string, string> = {},
): string[] {
  if (result.status < 200 || result.status > 299) return [];
  const template = templateOf(document, path);
  const upstream =
    template && query.attribute === undefined
      ? checkResponse(`${method} ${template}`, result.status, result.body)
      : [];
  return [
    ...ourProblems(document, method, path, result).map((p) => `ours: ${p}`),
    ...upstream.map((p) => `upstream: ${p}`),
  ];
}

/** `http` that fails (throws) on any 2xx answer that does not fit our document and upstream's. */
export function checkedHttp(http: Http): Http {
  let document: Promise<OurDocument> | undefined;
  const load = async () => {
    const served = await http('GET', '/v1/openapi.json');
    if (served.status !== 200)
      throw new Error(`GET /v1/openapi.json → ${served.status}: ${served.text.slice(0, 300)}`);
    return served.body as OurDocument;
  };
  return async (method, path, options) => {
    const result = await http(method, path, options);
    if (result.status < 200 || result.status > 299) return result;
    document ??= load();
    const problems = bothProblems(await document, method, path, result, options?.query);
    if (problems.length > 0) {
      throw new Error(
        `${method} ${path} → ${result.status}: the body does not fit the OpenAPI documents:\n  ` +
          `${problems.join('\n  ')}\nbody: ${result.text.slice(0, 600)}`,
      );
    }
    return result;
  };
}
