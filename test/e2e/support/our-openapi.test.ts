import { describe, expect, it } from 'vitest';
import type { HttpResult } from '#test/support/http';
import { SchemaChecker } from '#test/support/json-schema';
import { bothProblems, type OurDocument, ourProblems, templateOf } from '#test/support/our-openapi';

/** The checks against our own document: they must be able to say no. */
const document: OurDocument = {
  paths: {
    '/v1/orgs/{organization}': { get: { responses: { 200: { content: json('Org') } } } },
    '/v1/orgs/{organization}/status': { get: { responses: { 200: { content: json('Org') } } } },
    '/v1/orgs/{organization}/{thing}': { delete: { responses: { 204: {} } } },
    '/v1/admin/version': {
      get: { responses: { 200: { content: { 'text/plain': { schema: { type: 'string' } } } } } },
    },
  },
  components: {
    schemas: {
      Org: {
        type: 'object',
        properties: { label: { type: 'string', minLength: 1 }, n: { type: 'integer', minimum: 0 } },
        required: ['label'],
        additionalProperties: false,
      },
    },
  },
};

function json(name: string) {
  return { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } };
}

const answer = (status: number, body: unknown, type = 'application/json'): HttpResult => ({
  status,
  body,
  text: typeof body === 'string' ? body : JSON.stringify(body),
  headers: new Headers({ 'content-type': type }),
});

describe('checks against our OpenAPI document', () => {
  it('finds the most specific template of a concrete path', () => {
    expect(templateOf(document, '/v1/orgs/o1/status')).toBe('/v1/orgs/{organization}/status');
    expect(templateOf(document, '/v1/orgs/o1/other')).toBe('/v1/orgs/{organization}/{thing}');
    expect(templateOf(document, '/v1/orgs/o%2F1?x=1')).toBe('/v1/orgs/{organization}');
    expect(templateOf(document, '/v1/nowhere')).toBeUndefined();
  });

  it('accepts a fitting body and names every violation of a bad one', () => {
    expect(ourProblems(document, 'GET', '/v1/orgs/o', answer(200, { label: 'l', n: 2 }))).toEqual([]);
    expect(ourProblems(document, 'GET', '/v1/orgs/o', answer(200, { n: -1.5, extra: true }))).toEqual([
      '$.label: required but missing',
      '$.n: expected integer, got number',
      '$.extra: not a documented property',
    ]);
    expect(ourProblems(document, 'GET', '/v1/orgs/o', answer(200, { label: '' }))).toEqual([
      '$.label: shorter than 1',
    ]);
  });

  it('refuses undocumented operations, statuses, bodies and content types', () => {
    expect(ourProblems(document, 'PUT', '/v1/orgs/o', answer(201, {}))).toEqual([
      'PUT /v1/orgs/o is not in our OpenAPI document',
    ]);
    expect(ourProblems(document, 'GET', '/v1/orgs/o', answer(201, {}))).toEqual([
      'GET /v1/orgs/{organization} does not document status 201',
    ]);
    expect(ourProblems(document, 'DELETE', '/v1/orgs/o/x', answer(204, ''))).toEqual([]);
    expect(ourProblems(document, 'DELETE', '/v1/orgs/o/x', answer(204, { a: 1 }))).toEqual([
      'status 204 is documented without a body',
    ]);
    expect(ourProblems(document, 'GET', '/v1/orgs/o', answer(200, 'x', 'text/plain'))).toEqual([
      'content type text/plain is not documented for status 200',
    ]);
    expect(ourProblems(document, 'GET', '/v1/admin/version', answer(200, '2.154.0\n', 'text/plain'))).toEqual(
      [],
    );
  });

  it('checks 2xx answers against upstream too, and leaves other statuses alone', () => {
    const upstreamOrgs = { '/v1/orgs/{organization}': document.paths['/v1/orgs/{organization}'] ?? {} };
    const withUpstreamShape: OurDocument = { ...document, paths: upstreamOrgs };
    const problems = bothProblems(
      withUpstreamShape,
      'GET',
      '/v1/orgs/o',
      answer(200, { label: 'l', orgs: 3 }),
    );
    expect(problems).toEqual([
      'ours: $.orgs: not a documented property',
      'upstream: $.orgs: expected object, got integer',
    ]);
    expect(bothProblems(document, 'GET', '/v1/orgs/o', answer(404, { junk: 1 }))).toEqual([]);
  });

  it('knows anyOf, enum, const, nullable types, records and refuses unknown keywords', () => {
    const checker = new SchemaChecker({});
    const schema = {
      anyOf: [
        {
          type: 'object',
          propertyNames: { pattern: '^a' },
          additionalProperties: { type: ['string', 'null'] },
        },
        { enum: [1, 2] },
        { const: 'x' },
      ],
    };
    expect(checker.check(schema, { ab: null, ac: 's' })).toEqual([]);
    expect(checker.check(schema, 2)).toEqual([]);
    expect(checker.check(schema, 'x')).toEqual([]);
    expect(checker.check(schema, { b: 1 })[0]).toMatch(/^\$: fits none of anyOf/);
    expect(checker.check({ type: 'string', contentEncoding: 'base64' }, 's')).toEqual([
      '$: schema keyword(s) this checker does not know: contentEncoding',
    ]);
    expect(checker.check({ $ref: '#/components/schemas/Missing' }, 1)).toEqual([
      '$: unresolvable $ref #/components/schemas/Missing',
    ]);
  });
});
