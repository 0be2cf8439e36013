import { describe, expect, it } from 'vitest';
import { handler } from '#functions/openapi/get-openapi';
import { openApiDocument } from '#functions/openapi/shared/document';
import { invoke } from '#test/support/invoke';
import { ANNOTATIONS, CHECKED, type JsonSchema, SchemaChecker } from '#test/support/json-schema';

/** The document is OpenAPI 3.1 in shape, internally consistent, and served anonymously. */
const document = openApiDocument();
const METHODS = ['get', 'put', 'post', 'patch', 'delete'];
type Operation = {
  operationId: string;
  parameters: { name: string; in: string; required: boolean; schema: JsonSchema }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: JsonSchema }> }>;
  security: unknown[];
};
const operations = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, operation]) => ({
    path,
    method,
    op: operation as unknown as Operation,
  })),
);

/** Every value under `key` anywhere in `value`. */
function collect(value: unknown, key: string, found: unknown[] = []): unknown[] {
  if (Array.isArray(value)) for (const item of value) collect(item, key, found);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === key) found.push(v);
      collect(v, key, found);
    }
  }
  return found;
}

/** Every schema object (keyword maps) inside a JSON Schema. */
function schemasIn(schema: unknown, out: JsonSchema[] = []): JsonSchema[] {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return out;
  const s = schema as JsonSchema;
  out.push(s);
  for (const key of ['items', 'additionalProperties', 'propertyNames']) schemasIn(s[key], out);
  for (const key of ['anyOf', 'oneOf', 'allOf'])
    for (const branch of (s[key] as unknown[]) ?? []) schemasIn(branch, out);
  for (const property of Object.values((s.properties as object) ?? {})) schemasIn(property, out);
  return out;
}

describe('the OpenAPI document', () => {
  it('has the top-level shape of OpenAPI 3.1', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.title).toBeTruthy();
    expect(document.info.version).toBe('2.154.0');
    expect(Object.keys(document.paths).length).toBeGreaterThan(20);
    expect(Object.keys(document.components.schemas).length).toBeGreaterThan(10);
    expect(document.components.securitySchemes.basicAuth).toEqual(
      expect.objectContaining({ type: 'http', scheme: 'basic' }),
    );
    for (const path of Object.keys(document.paths)) expect(path).toMatch(/^\/v1\//);
  });

  it('gives every operation a unique operationId, a summary, responses with descriptions and a 2xx', () => {
    const ids = operations.map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { path, method, op } of operations) {
      expect(METHODS, path).toContain(method);
      const statuses = Object.keys(op.responses);
      // A 302 is a success too: an object's data is a redirect to where it is stored (docs/nmp.md).
      expect(
        statuses.some((s) => /^2\d\d$/.test(s) || s === '302'),
        `${method} ${path}`,
      ).toBe(true);
      for (const [status, response] of Object.entries(op.responses)) {
        expect(status).toMatch(/^[1-5]\d\d$/);
        expect(response.description, `${method} ${path} ${status}`).toBeTruthy();
        if (status === '204') expect(response.content).toBeUndefined();
      }
    }
  });

  it('declares each {parameter} of a path template as a required path parameter, and no other', () => {
    for (const { path, method, op } of operations) {
      const inTemplate = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const declared = op.parameters.filter((p) => p.in === 'path');
      expect(
        declared.map((p) => p.name),
        `${method} ${path}`,
      ).toEqual(inTemplate);
      for (const p of declared) expect(p.required).toBe(true);
      for (const p of op.parameters) expect(['path', 'query']).toContain(p.in);
    }
  });

  it('resolves every $ref to a component', () => {
    const refs = collect(document, '$ref') as string[];
    expect(refs.length).toBeGreaterThan(50);
    for (const ref of refs) {
      const name = /^#\/components\/schemas\/([^/#]+)$/.exec(ref)?.[1];
      expect(name && document.components.schemas[name], ref).toBeTruthy();
    }
  });

  it('writes only the JSON Schema keywords the e2e checker knows, so its checks are complete', () => {
    const all = [
      ...Object.values(document.components.schemas),
      ...operations.flatMap(({ op }) => op.parameters.map((p) => p.schema)),
    ].flatMap((schema) => schemasIn(schema));
    const unknown = new Set(
      all.flatMap((s) => Object.keys(s)).filter((k) => !CHECKED.has(k) && !ANNOTATIONS.has(k)),
    );
    expect([...unknown]).toEqual([]);
  });

  it('describes bodies sent with a body and answers that are not 204 or 304 with a JSON or text schema', () => {
    for (const { path, method, op } of operations) {
      if (op.requestBody)
        expect(Object.keys(op.requestBody.content), `${method} ${path}`).toEqual(['application/json']);
      for (const [status, response] of Object.entries(op.responses)) {
        if (status === '204' || status === '302' || status === '304') continue;
        expect(Object.keys(response.content ?? {}), `${method} ${path} ${status}`).toHaveLength(1);
      }
    }
  });

  it('describes the response bodies strictly: an undocumented property is a violation', () => {
    const checker = new SchemaChecker(document.components.schemas);
    const ok = { $ref: '#/components/schemas/ApiResponse' };
    expect(checker.check(ok, { code: 'ok', msg: 'fine' })).toEqual([]);
    expect(checker.check(ok, { code: 'ok', msg: 'fine', extra: 1 })).toEqual([
      '$.extra: not a documented property',
    ]);
  });

  it('is served by GET /v1/openapi.json without credentials, and equals the built document', async () => {
    for (const auth of [undefined, { user: 'nobody/none', secret: 'wrong' }]) {
      const result = await invoke(handler, { auth });
      expect(result.status).toBe(200);
      expect(result.headers['Content-Type']).toBe('application/json');
      expect(result.body).toEqual(JSON.parse(JSON.stringify(document)));
    }
  });
});
