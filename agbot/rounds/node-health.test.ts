import { describe, expect, it } from 'vitest';
import { REASON } from '#lib/protocol/reason-codes';
import type { RoundContext } from './context.ts';
import { LiveAgreements } from './live-agreements.ts';
import { governNodeHealth, healthVerdict } from './node-health.ts';

const NOW = Date.parse('2026-11-28T12:00:00.000Z');
const ago = (s: number) => new Date(NOW - s * 1000).toISOString();
const agreement = { agreementId: 'a1', agreedAt: NOW - 600_000 };
const both = { missingHeartbeatS: 120, checkAgreementS: 60 };
const searchedSince = NOW - 120_000;

/** A finalized agreement `a1` of node acme/n1, checked every 15 s (missing heartbeat after 120 s). */
const finalizedAgreement = () => ({
  agreementId: 'a1',
  nodeOrg: 'acme',
  nodeId: 'n1',
  policy: 'acme/pol',
  service: { org: 'acme', url: 's', version: '1.0.0', arch: 'amd64' },
  state: 'Finalized Agreement',
  createdAt: NOW - 600_000,
  updatedAt: NOW - 600_000,
  archived: false,
  details: {
    protocolTimeoutS: 0,
    secrets: [],
    repliedAt: NOW - 600_000,
    nodeHealth: { missing_heartbeat_interval: 120, check_agreement_status: 15 },
  },
});

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

describe('governNodeHealth', () => {
  it('searches only when a check is due', async () => {
    let now = NOW;
    const live = finalizedAgreement();
    const calls = { search: 0 };
    const ctx = {
      now: () => now,
      memory: {
        nodeHealthCheckedAt: new Map<string, number>(),
        missingOnNodeSince: new Map<string, number>(),
      },
      exchange: {
        nodeHealth: async () => {
          calls.search += 1;
          return {
            nodes: { 'acme/n1': { lastHeartbeat: new Date(now).toISOString(), agreements: { a1: {} } } },
          };
        },
      },
      log: { info: () => undefined },
    } as unknown as RoundContext;
    const agreements = LiveAgreements.of([live]);
    expect(await governNodeHealth(ctx, agreements)).toBe(0);
    expect(calls).toEqual({ search: 1 });
    now += 5_000;
    await governNodeHealth(ctx, agreements);
    expect(calls).toEqual({ search: 1 });
    now += 11_000;
    await governNodeHealth(ctx, agreements);
    expect(calls).toEqual({ search: 2 });
  });
});

describe('governNodeHealth and the node’s own cancel', () => {
  it('ends an agreement the node no longer lists only at the next check, after reading the mailbox: the node’s cancel wins', async () => {
    const live = finalizedAgreement();
    const calls = { messages: 0, lookups: 0 };
    let now = NOW;
    const ctx = {
      now: () => now,
      settings: { concurrency: 2 },
      memory: {
        nodeHealthCheckedAt: new Map<string, number>(),
        missingOnNodeSince: new Map<string, number>(),
        lastMailboxAt: 0,
      },
      exchange: {
        // The node deleted its agreement row (it no longer lists a1)…
        nodeHealth: async () => ({
          nodes: { 'acme/n1': { lastHeartbeat: new Date(now).toISOString(), agreements: {} } },
        }),
        messages: async () => {
          calls.messages += 1;
          return { messages: [] };
        },
      },
      // …and its cancel, read from the mailbox, archived the agreement with the node's reason.
      store: {
        getAgreement: async () => {
          calls.lookups += 1;
          return { ...live, archived: true, terminatedReason: REASON.serviceTerminated };
        },
      },
      log: { info: () => undefined, debug: () => undefined, warn: () => undefined },
    } as unknown as RoundContext;
    const agreements = LiveAgreements.of([live]);
    // First seen missing: nothing ended, nothing read yet; looked at again at the next check.
    expect(await governNodeHealth(ctx, agreements)).toBe(0);
    expect(calls).toEqual({ messages: 0, lookups: 0 });
    expect(ctx.memory.missingOnNodeSince.has('a1')).toBe(true);
    now += 16_000;
    expect(await governNodeHealth(ctx, agreements)).toBe(0);
    expect(calls).toEqual({ messages: 1, lookups: 1 });
    expect(agreements.list()).toEqual([]);
    expect(ctx.memory.missingOnNodeSince.size).toBe(0);
  });
});
