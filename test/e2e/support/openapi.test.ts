import { describe, expect, it } from 'vitest';
import { checkResponse, validate } from '#test/support/openapi';

/** The schema checker itself: it must be able to say no. */
const org = {
  orgType: '',
  label: 'l',
  description: 'd',
  lastUpdated: '2026-01-01T00:00:00Z',
  tags: null,
  limits: { maxNodes: 0 },
  heartbeatIntervals: { minInterval: 0, maxInterval: 0, intervalAdjustment: 0 },
};

describe('OpenAPI response check', () => {
  it('accepts a body that fits, with null for an optional property', () => {
    expect(checkResponse('GET /v1/orgs/{organization}', 200, { orgs: { o: org }, lastIndex: 0 })).toEqual([]);
  });

  it('names a missing required property, a null required one and a wrong type', () => {
    const { label: _label, ...noLabel } = org;
    expect(checkResponse('GET /v1/orgs', 200, { orgs: { o: noLabel }, lastIndex: 0 })).toEqual([
      '$.orgs.o.label: required but missing',
    ]);
    expect(checkResponse('GET /v1/orgs', 200, { orgs: { o: { ...org, limits: null } } })).toEqual([
      '$.orgs.o.limits: required but null',
    ]);
    expect(
      checkResponse('GET /v1/orgs', 200, { orgs: { o: { ...org, limits: { maxNodes: '5' } } } }),
    ).toEqual(['$.orgs.o.limits.maxNodes: expected integer, got string']);
  });

  it('checks array items and treats a bare object schema as any JSON value', () => {
    const policy = {
      label: '',
      description: '',
      properties: [{ name: 'a', value: 3 }, { name: 'b' }],
      constraints: ['x == 1', 2],
      deployment: {},
      management: {},
      nodePolicyVersion: '',
      lastUpdated: 't',
    };
    expect(checkResponse('GET /v1/orgs/{organization}/nodes/{node}/policy', 200, policy)).toEqual([
      '$.properties[1].value: required but missing',
      '$.constraints[1]: expected string, got integer',
    ]);
  });

  it('ignores other statuses and undocumented operations', () => {
    expect(checkResponse('GET /v1/orgs', 404, { nonsense: true })).toEqual([]);
    expect(checkResponse('GET /v1/nowhere', 200, 'x')).toEqual([]);
    expect(validate({ type: 'string' }, 1)).toEqual(['$: expected string, got integer']);
  });
});
