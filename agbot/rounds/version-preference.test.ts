import { describe, expect, it } from 'vitest';
import { REASON } from '#lib/protocol/reason-codes';
import { type Attempt, preferVersions } from './version-preference.ts';

const NOW = 10_000_000;
const s = (seconds: number) => seconds * 1000;

const broken2 = { version: '2.0.0', priority: { priority_value: 1, retries: 1, retry_durations: 1800 } };
const stable1 = { version: '1.0.0', priority: { priority_value: 2, retries: 1, retry_durations: 1800 } };
const failed = (version: string, endedAgo: number, reason: number = REASON.serviceTerminated): Attempt => ({
  version,
  agreedAt: NOW - s(endedAgo + 5),
  endedAt: NOW - s(endedAgo),
  reason,
});

describe('preferVersions', () => {
  it('offers the versions by priority when nothing failed', () => {
    expect(preferVersions([stable1, broken2], [], NOW)).toEqual({
      versions: ['2.0.0', '1.0.0'],
      abandoned: [],
    });
  });

  it('abandons a version that failed `retries` times within `retry_durations`', () => {
    const result = preferVersions([broken2, stable1], [failed('2.0.0', 60)], NOW);
    expect(result.versions).toEqual(['1.0.0']);
    expect(result.abandoned).toEqual([{ version: '2.0.0', failures: 1, retries: 1, withinS: 1800 }]);
  });

  it('keeps a version with retries left, and forgets failures older than the window', () => {
    const twice = { ...broken2, priority: { ...broken2.priority, retries: 2 } };
    expect(preferVersions([twice, stable1], [failed('2.0.0', 60)], NOW).versions[0]).toBe('2.0.0');
    expect(preferVersions([broken2, stable1], [failed('2.0.0', 1801)], NOW).versions[0]).toBe('2.0.0');
  });

  it('counts only workload failures, not cancels for other reasons', () => {
    const userCancel = failed('2.0.0', 60, REASON.userRequested);
    const policyChange = failed('2.0.0', 30, REASON.agbotPolicyChanged);
    expect(preferVersions([broken2, stable1], [userCancel, policyChange], NOW).versions[0]).toBe('2.0.0');
    for (const reason of [REASON.serviceStartTimeout, REASON.imageLoadFailed, REASON.dependentServiceFailed])
      expect(preferVersions([broken2, stable1], [failed('2.0.0', 60, reason)], NOW).versions[0]).toBe(
        '1.0.0',
      );
  });

  it('never abandons a version without retry settings', () => {
    const plain = { version: '2.0.0', priority: { priority_value: 1 } };
    expect(preferVersions([plain, stable1], [failed('2.0.0', 1), failed('2.0.0', 2)], NOW).versions[0]).toBe(
      '2.0.0',
    );
  });

  it('counts only failures after a run that lasted verified_durations', () => {
    const verified = { ...broken2, priority: { ...broken2.priority, retries: 2, verified_durations: 600 } };
    const provenRun: Attempt = {
      version: '2.0.0',
      agreedAt: NOW - s(1500),
      endedAt: NOW - s(300),
      reason: 103,
    };
    const earlier = failed('2.0.0', 1600);
    // Without the proof the two failures (1600 s and 300 s ago) would abandon it.
    expect(preferVersions([verified, stable1], [earlier, provenRun], NOW).versions[0]).toBe('2.0.0');
    const shortRun: Attempt = { ...provenRun, agreedAt: NOW - s(400) };
    expect(preferVersions([verified, stable1], [earlier, shortRun], NOW).versions[0]).toBe('1.0.0');
  });

  it('keeps the lowest-priority version when every version is abandoned', () => {
    const result = preferVersions([broken2, stable1], [failed('2.0.0', 60), failed('1.0.0', 30)], NOW);
    expect(result.versions).toEqual(['1.0.0']);
    expect(result.abandoned.map((a) => a.version)).toEqual(['2.0.0', '1.0.0']);
  });

  it('moves to a version added at a higher priority, whatever the others did', () => {
    const works3 = { version: '3.0.0', priority: { priority_value: 0 } };
    expect(preferVersions([broken2, stable1, works3], [failed('2.0.0', 60)], NOW).versions).toEqual([
      '3.0.0',
      '1.0.0',
    ]);
  });
});
