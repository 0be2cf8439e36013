import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgbotAgreement } from '#lib/agbot-store/contract';
import { REASON } from '#lib/protocol/reason-codes';
import { SqliteAgbotStore } from '../store/sqlite-store.ts';
import { testRoundContext } from '../test-support/round-context.ts';
import type { RoundContext } from './context.ts';
import type { FeedSummary } from './feed.ts';
import { governChanges } from './govern.ts';
import { LiveAgreements } from './live-agreements.ts';

/**
 * Governance looks again at an agreement for a change of its node only when its proposal had not
 * seen that change (`AgreementDetails.feedSeenUpTo` against the change's id). The Exchange client
 * is a stub that answers every read with nothing: an agreement looked at again finds its policy
 * gone and is cancelled (204), so what was looked at shows. The store is the real SQLite one.
 */
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const agreementOn = (node: string, feedSeenUpTo?: number): AgbotAgreement => ({
  agreementId: `ag-${node}`,
  nodeOrg: 'acme',
  nodeId: node,
  policy: 'acme/pol',
  service: { org: 'acme', url: 's', version: '1.0.0', arch: 'amd64' },
  state: 'Finalized Agreement',
  createdAt: 1,
  updatedAt: 1,
  archived: false,
  details: { protocolTimeoutS: 0, secrets: [], ...(feedSeenUpTo === undefined ? {} : { feedSeenUpTo }) },
});

const feedOf = (changes: Record<string, number>, policyChanges: Record<string, number> = {}): FeedSummary =>
  ({
    nodes: new Set(Object.keys(changes)),
    nodeChangeIds: new Map(Object.entries(changes)),
    nodesDeleted: new Set(),
    policies: new Set(Object.keys(policyChanges)),
    policyChangeIds: new Map(Object.entries(policyChanges)),
    patterns: new Set(),
  }) as unknown as FeedSummary;

/** A round context on the real SQLite store whose Exchange answers every read with nothing, noting the policy reads. */
function governedWorld() {
  const dir = mkdtempSync(join(tmpdir(), 'agbot-govern-seen-'));
  dirs.push(dir);
  const store = SqliteAgbotStore.open(dir);
  const reads: string[] = [];
  const exchange = {
    deploymentPolicy: async (org: string, name: string) => {
      reads.push(`${org}/${name}`);
      return undefined;
    },
    node: async () => undefined,
    deleteAgreement: async () => undefined,
  };
  const ctx = testRoundContext({ store, exchange: exchange as unknown as RoundContext['exchange'] });
  return { store, reads, ctx };
}

describe("governance and a node's changes", () => {
  it('looks again only at agreements whose proposal had not seen the change: a later id, no id, or no mark', async () => {
    const { store, reads, ctx } = governedWorld();
    const agreements = [
      agreementOn('seen', 100), // changed at id 90: its proposal read the node after that
      agreementOn('later', 100), // changed at id 110, after its proposal's reads began
      agreementOn('unmarked'), // proposed before agreements kept the mark (or by another agbot build)
      agreementOn('no-ids', 100), // the Exchange listed no change ids
      agreementOn('quiet', 100), // not in the feed
    ];
    for (const agreement of agreements) await store.saveAgreement(agreement);
    const live = LiveAgreements.of(agreements);
    const feed = feedOf({
      'acme/seen': 90,
      'acme/later': 110,
      'acme/unmarked': 5,
      'acme/no-ids': Number.POSITIVE_INFINITY,
    });
    const served = new Map([['acme/pol', ['acme']]]);

    const cancelled = await governChanges(ctx, live, feed, served);

    expect(reads).toEqual(['acme/pol', 'acme/pol', 'acme/pol']);
    expect(cancelled).toBe(3);
    expect(live.list().map((a) => a.nodeId)).toEqual(['seen', 'quiet']);
    const archived = await store.listAgreements(true);
    expect(archived.map((a) => [a.nodeId, a.terminatedReason]).sort()).toEqual([
      ['later', REASON.agbotPolicyChanged],
      ['no-ids', REASON.agbotPolicyChanged],
      ['unmarked', REASON.agbotPolicyChanged],
    ]);
    await store.close();
  });

  it("looks again at an agreement for its deployment policy's change only when its proposal had not seen it", async () => {
    const { store, reads, ctx } = governedWorld();
    // Proposed after the policy's creation (id 90: a fleet's registrations ahead of it in the
    // feed, read rounds later), and one proposed before the policy's change at id 110.
    const agreements = [agreementOn('after-creation', 100), agreementOn('before-change', 100)];
    agreements[1] = { ...(agreements[1] as AgbotAgreement), policy: 'acme/changed' };
    for (const agreement of agreements) await store.saveAgreement(agreement);
    const live = LiveAgreements.of(agreements);
    const feed = feedOf({}, { 'acme/pol': 90, 'acme/changed': 110 });
    const served = new Map([
      ['acme/pol', ['acme']],
      ['acme/changed', ['acme']],
    ]);

    expect(await governChanges(ctx, live, feed, served)).toBe(1);
    expect(reads).toEqual(['acme/changed']);
    expect(live.list().map((a) => a.nodeId)).toEqual(['after-creation']);
    await store.close();
  });
});
