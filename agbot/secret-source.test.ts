import { describe, expect, it } from 'vitest';
import { secretSource } from './exchange.ts';

describe('where a bound secret is read (README "Secrets")', () => {
  it('in the node`s org, naming the policy or pattern plainly when it is of that org', () => {
    expect(secretSource('policy', 'acme', 'web', 'acme')).toEqual({
      org: 'acme',
      kind: 'policy',
      name: 'web',
    });
  });

  it('in the node`s org, naming another org`s pattern as <org>/<name>, as upstream`s agbot reads it', () => {
    expect(secretSource('pattern', 'IBM', 'gps', 'acme')).toEqual({
      org: 'acme',
      kind: 'pattern',
      name: 'IBM/gps',
    });
  });
});
