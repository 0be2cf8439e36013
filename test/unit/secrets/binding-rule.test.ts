import { describe, expect, it } from 'vitest';
import {
  bindingRefusal,
  boundEntries,
  deliversEntry,
  nodeLevelCandidates,
  nodeMayReceive,
} from '#lib/secrets/binding-rule';

const alice = { kind: 'user', org: 'o', id: 'alice', admin: false } as const;
const admin = { kind: 'user', org: 'o', id: 'boss', admin: true } as const;
const stranger = { kind: 'user', org: 'other', id: 'alice', admin: true } as const;

describe('bindingRefusal: who may bind which name in org o', () => {
  it.each([
    [alice, 'db', true],
    [alice, '/db', true],
    [alice, 'a/b/c', true],
    [alice, 'user/alice/x', true],
    [alice, '//user/alice/x', true],
    [alice, 'user/alice/node/n/x', true],
    [alice, 'user/bob/x', false],
    [alice, 'user/bob/node/n/x', false],
    [alice, 'node/n/x', false],
    [admin, 'node/n/x', true],
    [admin, 'user/alice/x', false],
    [stranger, 'db', true],
    [stranger, 'node/n/x', false],
    [stranger, 'user/alice/x', false],
    [{ kind: 'root' } as const, 'db', true],
    [{ kind: 'root' } as const, 'node/n/x', false],
    [{ kind: 'other' } as const, 'user/alice/x', false],
    [admin, 'a//b', false],
    [admin, 'user/', false],
  ])('%o binding %s: allowed %s', (author, name, allowed) => {
    expect(bindingRefusal(author, 'o', name) === undefined).toBe(allowed);
  });
});

describe('node-level names and which node may receive a secret', () => {
  it('derives the node-level name first, then the bound one', () => {
    expect(nodeLevelCandidates('/db', 'n1', true)).toEqual(['node/n1/db', 'db']);
    expect(nodeLevelCandidates('user/u/x', 'n1', true)).toEqual(['user/u/node/n1/x', 'user/u/x']);
    expect(nodeLevelCandidates('db', 'n1', false)).toEqual(['db']);
  });

  it('gives a node secret only to its own node of its own org', () => {
    expect(nodeMayReceive('node/n1/k', 'o', 'o', 'n1')).toBe(true);
    expect(nodeMayReceive('node/n1/k', 'o', 'o', 'n2')).toBe(false);
    expect(nodeMayReceive('node/n1/k', 'o', 'other', 'n1')).toBe(false);
    expect(nodeMayReceive('user/u/node/n1/k', 'o', 'o', 'n2')).toBe(false);
    expect(nodeMayReceive('db', 'o', 'other', 'n2')).toBe(true);
  });

  it('knows which names a binding delivers', () => {
    const entries = boundEntries([
      { enableNodeLevelSecrets: true, secrets: [{ a: 'db', b: '/user/u/x' }] },
      { secrets: [{ c: 'plain' }] },
    ]);
    for (const name of ['db', 'node/n9/db', 'user/u/x', 'user/u/node/n9/x', 'plain'])
      expect(deliversEntry(name, entries), name).toBe(true);
    for (const name of ['node/n9/plain', 'user/v/x', 'user/u/node/n9/db', 'node/n9/user/u/x', 'other'])
      expect(deliversEntry(name, entries), name).toBe(false);
  });
});
