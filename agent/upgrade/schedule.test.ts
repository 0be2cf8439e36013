import { describe, expect, it } from 'vitest';
import type { ExchangeNmp } from '../exchange/types.ts';
import { newStatus, planStatuses, scheduledTime } from './schedule.ts';

const NOW = Date.parse('2031-02-03T04:05:06Z');
const policyNode = {
  org: 'o',
  pattern: '',
  policy: {
    properties: [{ name: 'tier', value: 'edge' }],
    management: { properties: [{ name: 'ring', value: 'canary' }], constraints: ['team == ops'] },
  },
};
const nmp = (fields: Partial<ExchangeNmp>): ExchangeNmp => ({
  enabled: true,
  start: 'now',
  lastUpdated: '2031-02-01T00:00:00.123000Z[UTC]',
  ...fields,
});

describe('scheduling a policy', () => {
  it('"now" anchors on the policy\'s lastUpdated (our clock if unreadable), plus a draw inside the window', () => {
    expect(scheduledTime(nmp({ startWindow: 60 }), NOW, (w) => w - 1)).toBe(
      Date.parse('2031-02-01T00:00:59.123Z'),
    );
    expect(scheduledTime(nmp({ lastUpdated: 'garbage' }), NOW)).toBe(NOW);
    expect(scheduledTime(nmp({ start: '2031-05-01T00:00:00Z', startWindow: -5 }), NOW)).toBe(
      Date.parse('2031-05-01T00:00:00Z'),
    );
    const status = newStatus(
      nmp({ agentUpgradePolicy: { manifest: 'IBM/m', allowDowngrade: true } }),
      NOW,
      '/w',
    );
    expect(status.agentUpgradeInternal).toMatchObject({ manifest: 'IBM/m', allowDowngrade: true });
    expect(status.agentUpgradePolicyStatus).toMatchObject({
      status: 'waiting',
      scheduledTime: '2031-02-01T00:00:00Z',
    });
  });

  it('policy mode holds both ways; disabled or no longer applying removes, a job under way stays', () => {
    const both = nmp({ properties: [{ name: 'team', value: 'ops' }], constraints: ['ring == canary'] });
    const oneWay = nmp({ properties: [{ name: 'team', value: 'ops' }], constraints: ['ring == stable'] });
    const otherWay = nmp({ constraints: ['ring == canary'] });
    const plan = planStatuses(
      { 'o/both': both, 'o/oneWay': oneWay, 'o/otherWay': otherWay },
      policyNode,
      {},
      NOW,
      '/w',
    );
    expect(Object.keys(plan.write)).toEqual(['o/both']);

    const existing = {
      'o/both': newStatus(both, NOW, '/w'),
      'o/busy': {
        ...newStatus(both, NOW, '/w'),
        agentUpgradePolicyStatus: {
          ...newStatus(both, NOW, '/w').agentUpgradePolicyStatus,
          status: 'initiated',
        },
      },
      'o/gone': newStatus(both, NOW, '/w'),
    };
    const later = planStatuses(
      { 'o/both': { ...both, enabled: false }, 'o/busy': { ...both, enabled: false } },
      policyNode,
      existing,
      NOW,
      '/w',
    );
    expect(later).toEqual({ write: {}, remove: ['o/both'] });
  });
});
