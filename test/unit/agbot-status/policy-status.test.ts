import { describe, expect, it } from 'vitest';
import type { AgbotAgreement } from '#lib/agbot-store/contract';
import {
  nextStatus,
  policyNames,
  policyReport,
  reportedPolicies,
  SKIPPED_KEPT,
} from '#lib/agbot-store/policy-status';

const target = { policy: 'acme/pol' };
const outcome = (full: boolean, found: string[], matched: string[], skipped: [string, string][]) => ({
  full,
  found,
  matched,
  skipped: new Map(skipped),
});

describe('folding a search into the policy status', () => {
  it('records the figures and the skipped nodes of a first search', () => {
    const status = nextStatus(
      undefined,
      target,
      outcome(true, ['acme/a', 'acme/b'], ['acme/a'], [['acme/b', 'policy mismatch']]),
      1000,
    );
    expect(status).toEqual({
      policy: 'acme/pol',
      search: { at: 1000, full: true, found: 2, matched: 1, skipped: 1 },
      skipped: [{ node: 'acme/b', reason: 'policy mismatch', since: 1000 }],
    });
  });

  it('writes nothing when a search sees the same as the last one, or a search of changes finds nothing', () => {
    const first = nextStatus(undefined, target, outcome(true, ['acme/b'], [], [['acme/b', 'x']]), 1000);
    expect(nextStatus(first, target, outcome(true, ['acme/b'], [], [['acme/b', 'x']]), 2000)).toBeUndefined();
    expect(nextStatus(first, target, outcome(false, [], [], []), 2000)).toBeUndefined();
  });

  it('keeps when a reason was first seen, and starts again when it changes', () => {
    const first = nextStatus(
      undefined,
      target,
      outcome(
        true,
        ['acme/b', 'acme/c'],
        [],
        [
          ['acme/b', 'x'],
          ['acme/c', 'y'],
        ],
      ),
      1000,
    );
    const next = nextStatus(
      first,
      target,
      outcome(
        true,
        ['acme/b', 'acme/c'],
        [],
        [
          ['acme/b', 'x'],
          ['acme/c', 'z'],
        ],
      ),
      2000,
    );
    expect(next?.skipped).toEqual([
      { node: 'acme/c', reason: 'z', since: 2000 },
      { node: 'acme/b', reason: 'x', since: 1000 },
    ]);
  });

  it('a search of changes replaces only the nodes it looked at; a full one replaces them all', () => {
    const first = nextStatus(
      undefined,
      target,
      outcome(
        true,
        ['acme/b', 'acme/c'],
        [],
        [
          ['acme/b', 'x'],
          ['acme/c', 'y'],
        ],
      ),
      1000,
    );
    const changes = nextStatus(first, target, outcome(false, ['acme/b'], ['acme/b'], []), 2000);
    expect(changes?.skipped.map((s) => s.node)).toEqual(['acme/c']);
    expect(changes?.search).toEqual({ at: 2000, full: false, found: 1, matched: 1, skipped: 0 });
    const full = nextStatus(changes, target, outcome(true, ['acme/d'], [], [['acme/d', 'w']]), 3000);
    expect(full?.skipped.map((s) => s.node)).toEqual(['acme/d']);
  });

  it(`keeps the ${SKIPPED_KEPT} most recent skipped nodes and cuts long reasons`, () => {
    const nodes = Array.from({ length: 80 }, (_, i) => `acme/n${i}`);
    const status = nextStatus(
      undefined,
      target,
      outcome(
        true,
        nodes,
        [],
        nodes.map((n) => [n, 'r'.repeat(1000)]),
      ),
      1000,
    );
    expect(status?.skipped).toHaveLength(SKIPPED_KEPT);
    expect(status?.search.skipped).toBe(80);
    expect(status?.skipped[0]?.reason.length).toBe(200);
    // The item's size at the longest (docs/agbot.md "Status": under 7 KB, so at most 7 WCU a write).
    expect(JSON.stringify(status).length).toBeLessThan(7_000);
  });
});

const agreement = (id: string, over: Partial<AgbotAgreement>): AgbotAgreement => ({
  agreementId: id,
  nodeOrg: 'acme',
  nodeId: id,
  policy: 'acme/pol',
  service: { org: 'acme', url: 'svc', version: '1.0.0', arch: 'amd64' },
  state: 'Formed Proposal',
  createdAt: 0,
  updatedAt: 0,
  archived: false,
  ...over,
});

describe('the policy report', () => {
  const now = 10_000_000;
  const finalized = (id: string, workload?: 'running' | 'failing') =>
    agreement(id, {
      state: 'Finalized Agreement',
      details: {
        protocolTimeoutS: 1,
        secrets: [],
        repliedAt: now - 601_000,
        ...(workload ? { workload: { state: workload, at: now } } : {}),
      },
    });
  const live = [
    agreement('p1', {}),
    finalized('f1', 'running'),
    finalized('f2', 'failing'),
    // Agreed, its node's report not read yet (or still starting): neither running nor failing.
    finalized('f3'),
    agreement('o1', { policy: 'acme/other' }),
    agreement('o2', {
      policy: 'acme/other',
      state: 'Finalized Agreement',
      details: { protocolTimeoutS: 1, secrets: [], workload: { state: 'running', at: now } },
    }),
  ];
  const status = {
    policy: 'acme/pol',
    search: { at: 0, full: true, found: 3, matched: 1, skipped: 2 },
    skipped: [
      { node: 'acme/b', reason: 'policy mismatch', since: 0 },
      { node: 'beta/c', reason: 'no public key', since: 0 },
    ],
  };

  it("counts the live agreements: proposed, agreed, and running or failing as the nodes' reports say", () => {
    const report = policyReport('acme/pol', status, live);
    expect(report).toMatchObject({
      org: 'acme',
      name: 'pol',
      matched: 4,
      proposed: 1,
      agreed: 3,
      running: 1,
      failing: 1,
    });
    expect(report.lastSearch).toEqual({
      at: new Date(0).toISOString(),
      full: true,
      found: 3,
      matched: 1,
      skipped: 2,
    });
    expect(report.skipped.map((s) => s.node)).toEqual(['acme/b', 'beta/c']);
  });

  it('shows only the nodes of the orgs the reader may see', () => {
    const report = policyReport('acme/pol', status, live, (org) => org === 'acme');
    expect(report.skipped.map((s) => s.node)).toEqual(['acme/b']);
  });

  it("lists the policies in upstream's org → names shape", () => {
    const policies = reportedPolicies([status], live);
    expect(policies).toEqual(['acme/other', 'acme/pol']);
    expect(reportedPolicies([status], live, 'beta')).toEqual([]);
    expect(policyNames(policies)).toEqual({ acme: ['other', 'pol'] });
  });
});
