import type { PlainResponse } from '../../../scripts/local/http-request.ts';

/**
 * What every answer must satisfy, whatever was asked: no 5xx; `{code, msg}` JSON on every 4xx;
 * no stored secret field, hash or plaintext secret in the body; an answer within the time limit.
 */
/**
 * Far above any normal answer, far below what a pathological input (a backtracking pattern, an
 * unbounded read) costs; speed itself is measured by the benchmarks. Two shared cores running the
 * whole suite have answered a plain list in 1.3 s twice in a row.
 */
export const TIME_LIMIT_MS = 3000;

/** Request heads longer than this never reach our handler locally (Node's 16 KB header limit). */
export const LOCAL_HEAD_LIMIT = 16 * 1024;

/**
 * A field name that holds a hash (`tokenHash`, `passwordHash`, `secretHash`, `hash`...); not CSS's
 * `hashAlgorithm`, which names the algorithm of an object's public signature (docs/nmp.md#manifests).
 */
const HASH_FIELD = /"(?!hashAlgorithm")[A-Za-z_]*(?:hash|Hash|HASH)[A-Za-z_]*"\s*:/;
/** What lib/auth/secrets.ts hashSecret stores. */
const STORED_HASH = /\$scrypt\$/;

export function answerProblems(response: PlainResponse, elapsedMs: number, secrets: string[]): string[] {
  const problems: string[] = [];
  const { status, text } = response;
  if (status >= 500) problems.push(`status ${status}`);
  if (status >= 400 && status < 500) {
    const type = String(response.headers['content-type'] ?? '');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const shaped =
      type.startsWith('application/json') &&
      typeof body === 'object' &&
      body !== null &&
      typeof (body as { code?: unknown }).code === 'string' &&
      typeof (body as { msg?: unknown }).msg === 'string';
    // Upstream's 404-with-empty-collection bodies (`{"nodes":{},"lastIndex":0}`) are JSON too.
    const emptyCollection = status === 404 && type.startsWith('application/json') && isEmptyCollection(body);
    if (!shaped && !emptyCollection) problems.push(`a ${status} without a {code,msg} JSON body`);
  }
  if (HASH_FIELD.test(text)) problems.push('a hash field in the body');
  if (STORED_HASH.test(text)) problems.push('a stored hash in the body');
  for (const secret of secrets) if (text.includes(secret)) problems.push('a plaintext secret in the body');
  if (elapsedMs > TIME_LIMIT_MS)
    problems.push(`took ${Math.round(elapsedMs)} ms (limit ${TIME_LIMIT_MS} ms)`);
  return problems;
}

/**
 * `{"<things>": {} or [], "lastIndex": 0}`: upstream's answer when a list is empty; `[]`, the
 * object store's (upstream's hzn parses a 404's body as the list it asked for).
 */
function isEmptyCollection(body: unknown): boolean {
  if (Array.isArray(body)) return body.length === 0;
  if (typeof body !== 'object' || body === null) return false;
  const values = Object.entries(body).filter(([key]) => key !== 'lastIndex');
  return (
    values.length === 1 &&
    values.every(
      ([, value]) => typeof value === 'object' && value !== null && Object.keys(value).length === 0,
    )
  );
}
