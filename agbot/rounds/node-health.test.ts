import { describe, expect, it } from 'vitest';
import { REASON } from '#lib/protocol/reason-codes';
import { healthVerdict } from './node-health.ts';

const NOW = Date.parse('2026-11-28T12:00:00.000Z');
const ago = (s: number) => new Date(NOW - s * 1000).toISOString();
const agreement = { agreementId: 'a1', agreedAt: NOW - 600_000 };
const both = { missingHeartbeatS: 120, checkAgreementS: 60 };
const searchedSince = NOW - 120_000;

describe('healthVerdict', () => {
  it('keeps an agreement whose node heartbeats and lists it', () => {
    const report = { lastHeartbeat: ago(10), agreements: { a1: {} } };
    expect(healthVerdict(agreement, both, report, searchedSince, NOW)).toBeUndefined();
  });

  it('ends with 208 when the heartbeat is older than missing_heartbeat_interval, or not returned', () => {
    const stale = { lastHeartbeat: ago(121), agreements: { a1: {} } };
    expect(healthVerdict(agreement, both, stale, searchedSince, NOW)).toBe(REASON.agbotNodeHeartbeatStopped);
    expect(healthVerdict(agreement, both, undefined, searchedSince, NOW)).toBe(
      REASON.agbotNodeHeartbeatStopped,
    );
  });

  it("reads upstream's zone suffix", () => {
    const report = { lastHeartbeat: `${ago(10)}[UTC]`, agreements: { a1: {} } };
    expect(healthVerdict(agreement, both, report, searchedSince, NOW)).toBeUndefined();
  });

  it('ends with 209 when the node has not recorded the agreement within check_agreement_status', () => {
    const report = { lastHeartbeat: ago(10), agreements: {} };
    expect(healthVerdict(agreement, both, report, searchedSince, NOW)).toBe(
      REASON.agbotAgreementMissingOnNode,
    );
    const justAgreed = { agreementId: 'a1', agreedAt: NOW - 30_000 };
    expect(healthVerdict(justAgreed, both, report, searchedSince, NOW)).toBeUndefined();
  });

  it('checks only what the settings ask for', () => {
    const missingOnly = { missingHeartbeatS: 120, checkAgreementS: 0 };
    expect(
      healthVerdict(agreement, missingOnly, { lastHeartbeat: ago(10), agreements: {} }, searchedSince, NOW),
    ).toBeUndefined();
    const checkOnly = { missingHeartbeatS: 0, checkAgreementS: 60 };
    expect(healthVerdict(agreement, checkOnly, undefined, 0, NOW)).toBeUndefined();
  });
});
