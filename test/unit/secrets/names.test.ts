import { describe, expect, it } from 'vitest';
import { inTree, parseSecretName } from '#lib/secrets/names';

describe('parseSecretName', () => {
  it.each([
    ['db', { kind: 'org', name: 'db' }],
    ['a/b-c/d_e', { kind: 'org', name: 'a/b-c/d_e' }],
    ['node/n1/x', { kind: 'orgNode', name: 'node/n1/x', node: 'n1' }],
    ['node/n1/x/y', { kind: 'orgNode', name: 'node/n1/x/y', node: 'n1' }],
    ['user/bob/x', { kind: 'user', name: 'user/bob/x', user: 'bob' }],
    ['user/bob/node/n1/x', { kind: 'userNode', name: 'user/bob/node/n1/x', user: 'bob', node: 'n1' }],
    ['users/x', { kind: 'org', name: 'users/x' }],
  ])('%s', (name, expected) => {
    expect(parseSecretName(name)).toEqual(expected);
  });

  it.each([
    '',
    'user',
    'node',
    'user/bob',
    'node/n1',
    'user/bob/node',
    'user/bob/node/n1',
    '/a',
    'a/',
    'a b',
    'a.b',
    'é',
  ])('%j is refused with a reason', (name) => {
    expect(parseSecretName(name)).toEqual({ error: expect.any(String) });
  });

  it('inTree: the org tree leaves out user/ and node/; a user tree its node secrets', () => {
    expect(inTree('a', { kind: 'org' })).toBe(true);
    expect(inTree('node/n/a', { kind: 'org' })).toBe(false);
    expect(inTree('user/u/a', { kind: 'user', user: 'u' })).toBe(true);
    expect(inTree('user/u/node/n/a', { kind: 'user', user: 'u' })).toBe(false);
    expect(inTree('user/u/node/n/a', { kind: 'userNode', user: 'u', node: 'n' })).toBe(true);
    expect(inTree('user/uu/a', { kind: 'user', user: 'u' })).toBe(false);
  });
});
