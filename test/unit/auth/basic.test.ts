import { describe, expect, it } from 'vitest';
import { basicAuthHeader, parseBasicAuth } from '#lib/auth/basic';

describe('parseBasicAuth', () => {
  it('splits org/id:secret at the first slash and the first colon', () => {
    expect(parseBasicAuth(basicAuthHeader('myorg/node/with/slash', 'pa:ss:word'))).toEqual({
      org: 'myorg',
      id: 'node/with/slash',
      secret: 'pa:ss:word',
    });
  });

  it('accepts an empty secret (the hash check rejects it later)', () => {
    expect(parseBasicAuth(basicAuthHeader('o/u', ''))).toEqual({ org: 'o', id: 'u', secret: '' });
  });

  it.each([
    ['no header', undefined],
    ['another scheme', 'Bearer abc'],
    ['no colon', `Basic ${Buffer.from('o/u').toString('base64')}`],
    ['no slash', basicAuthHeader('ou', 'x')],
    ['empty org', basicAuthHeader('/u', 'x')],
    ['empty id', basicAuthHeader('o/', 'x')],
    ['whitespace in the id', basicAuthHeader('o/u v', 'x')],
  ])('rejects %s', (_name, header) => {
    expect(parseBasicAuth(header)).toBeUndefined();
  });

  it('is case-insensitive about the scheme', () => {
    const header = basicAuthHeader('o/u', 's').replace('Basic', 'basic');
    expect(parseBasicAuth(header)?.id).toBe('u');
  });
});
