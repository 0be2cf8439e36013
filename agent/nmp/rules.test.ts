import { describe, expect, it } from 'vitest';
import { applyChange, nextJob, rfc3339 } from './rules.ts';
import type { NmpStatus } from './store.ts';

const status = (fields: Partial<NmpStatus['agentUpgradePolicyStatus']>): NmpStatus => ({
  agentUpgradePolicyStatus: {
    scheduledTime: '2031-01-01T00:00:00Z',
    upgradedVersions: { softwareVersion: '', certVersion: '', configVersion: '' },
    status: 'waiting',
    ...fields,
  },
  agentUpgradeInternal: {
    allowDowngrade: false,
    manifest: '',
    scheduledUnixTime: '',
    latestMap: { softwareLatest: false, configLatest: false, certLatest: false },
    downloadAttempts: 3,
  },
});
const NOW = Date.parse('2031-02-03T04:05:06.789Z');

describe('node management status rules', () => {
  it('changes nothing without a status change', () => {
    expect(applyChange(status({}), { status: 'waiting', errorMessage: 'x' }, NOW)).toBeUndefined();
    expect(applyChange(status({}), { errorMessage: 'x', startTime: 't' }, NOW)).toBeUndefined();
  });

  it('treats a startTime of "0" as unset, and sets it only when becoming initiated', () => {
    const next = applyChange(status({ startTime: '0' }), { status: 'initiated' }, NOW);
    expect(next?.agentUpgradePolicyStatus.startTime).toBe('2031-02-03T04:05:06Z');
    const downloaded = applyChange(status({}), { status: 'downloaded', startTime: 'x', endTime: 'y' }, NOW);
    expect(downloaded?.agentUpgradePolicyStatus).not.toHaveProperty('startTime');
    expect(downloaded?.agentUpgradePolicyStatus).not.toHaveProperty('endTime');
  });

  it('back to waiting clears times and download attempts; other moves keep them', () => {
    const failed = status({ status: 'failed', startTime: 'a', endTime: 'b', errorMessage: 'e' });
    const waiting = applyChange(failed, { status: 'waiting' }, NOW);
    expect(waiting?.agentUpgradePolicyStatus).toEqual({
      scheduledTime: '2031-01-01T00:00:00Z',
      upgradedVersions: { softwareVersion: '', certVersion: '', configVersion: '' },
      status: 'waiting',
    });
    expect(waiting?.agentUpgradeInternal.downloadAttempts).toBe(0);
    expect(
      applyChange(failed, { status: 'rollback started' }, NOW)?.agentUpgradeInternal.downloadAttempts,
    ).toBe(3);
  });

  it('nextjob skips unreadable or empty schedules and picks the earliest', () => {
    const statuses = {
      'o/a': status({ scheduledTime: 'not a time' }),
      'o/b': status({ scheduledTime: '' }),
      'o/c': status({ scheduledTime: '2031-01-05T00:00:00Z' }),
      'o/d': status({ scheduledTime: '2031-01-04T00:00:00+02:00', status: 'successful' }),
    };
    expect(Object.keys(nextJob(statuses, undefined))).toEqual(['o/d']);
    expect(Object.keys(nextJob(statuses, false))).toEqual(['o/c']);
    expect(nextJob(statuses, true)).toEqual({});
    expect(rfc3339(NOW)).toBe('2031-02-03T04:05:06Z');
  });
});
