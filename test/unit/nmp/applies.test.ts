import { describe, expect, it } from 'vitest';
import { managementPolicy, nmpApplies } from '#lib/nmp/applies';
import { isStartTime, managementPolicyProblem } from '#lib/nmp/policy-body';
import { nmpTimestamp, parseNmpTimestamp } from '#lib/nmp/timestamp';

describe('which nodes a node management policy applies to (upstream VerifyCompatible)', () => {
  it('pattern mode: the node pattern in full, or its bare name (any org, as upstream)', () => {
    expect(nmpApplies({ patterns: ['acme/web'] }, 'acme/web', undefined)).toBe(true);
    expect(nmpApplies({ patterns: ['web'] }, 'acme/web', undefined)).toBe(true);
    expect(nmpApplies({ patterns: ['web'] }, 'other/web', undefined)).toBe(true);
    expect(nmpApplies({ patterns: ['acme/db'] }, 'acme/web', undefined)).toBe(false);
    // A pattern node never matches a policy NMP, a policy node never a pattern NMP.
    expect(nmpApplies({ constraints: [] }, 'acme/web', undefined)).toBe(false);
    expect(nmpApplies({ patterns: ['acme/web'] }, '', { properties: [] })).toBe(false);
  });

  it('policy mode: both directions; the management section over the top level', () => {
    const node = {
      properties: [
        { name: 'tier', value: 'gold' },
        { name: 'zone', value: 'a' },
      ],
      constraints: ['never == true'],
      management: { properties: [{ name: 'zone', value: 'b' }], constraints: ['team == edge'] },
    };
    expect(managementPolicy(node)).toEqual({
      properties: [
        { name: 'tier', value: 'gold' },
        { name: 'zone', value: 'b' },
      ],
      constraints: ['team == edge'],
    });
    const nmp = { properties: [{ name: 'team', value: 'edge' }], constraints: ['zone == b'] };
    expect(nmpApplies(nmp, '', node)).toBe(true);
    expect(nmpApplies({ ...nmp, constraints: ['zone == a'] }, '', node)).toBe(false);
    expect(nmpApplies({ ...nmp, properties: [] }, '', node)).toBe(false);
    // No management constraints: the top-level ones count.
    expect(nmpApplies({ properties: [] }, '', { constraints: ['never == true'] })).toBe(false);
    // Empty constraints on both sides hold: an NMP without constraints reaches every policy node.
    expect(nmpApplies({}, '', undefined)).toBe(true);
  });
});

describe('the policy body rules and the timestamp', () => {
  const body = { label: 'l', enabled: true };
  it('start is now or RFC 3339 with a zone', () => {
    expect(isStartTime('now')).toBe(true);
    expect(isStartTime('2031-01-01T00:00:00Z')).toBe(true);
    expect(isStartTime('2031-01-01T00:00:00.5+02:00')).toBe(true);
    expect(isStartTime('2031-01-01T00:00:00')).toBe(false);
    expect(isStartTime('2031-13-01T00:00:00Z')).toBe(false);
  });

  it('names the first problem', () => {
    expect(managementPolicyProblem({ ...body, constraints: [], patterns: [] })).toMatch(
      /both constraints and patterns/,
    );
    expect(managementPolicyProblem({ ...body, constraints: null, patterns: [] })).toBeUndefined();
    expect(
      managementPolicyProblem({ ...body, properties: [{ name: 'v', type: 'version', value: '1.2.3' }] }),
    ).toBeUndefined();
    expect(
      managementPolicyProblem({ ...body, properties: [{ name: 'v', type: 'version', value: 'x' }] }),
    ).toMatch(/properties\.0/);
    expect(managementPolicyProblem({ ...body, properties: [{ name: ' ', value: 1 }] })).toMatch(/name/);
  });

  it('writes …SSSSSSZ[UTC] and reads both forms', () => {
    const at = new Date('2031-05-01T10:00:00.123Z');
    expect(nmpTimestamp(at)).toBe('2031-05-01T10:00:00.123000Z[UTC]');
    expect(parseNmpTimestamp(nmpTimestamp(at))).toBe(at.getTime());
    expect(parseNmpTimestamp('2031-05-01T10:00:00.123Z')).toBe(at.getTime());
  });
});
