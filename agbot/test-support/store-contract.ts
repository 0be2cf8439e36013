import { afterEach, describe, expect, it } from 'vitest';
import type { AgbotAgreement, AgbotStore, PolicyStatus } from '#lib/agbot-store/contract';
import type { RolloutNode, RolloutRecord } from '#lib/rollout/states';

/** One empty agbot state; `open` gives another handle on it (another process, another invocation). */
export interface StateUnderTest {
  open(): Promise<AgbotStore>;
}

export const sampleAgreement: AgbotAgreement = {
  agreementId: 'a1',
  nodeOrg: 'acme',
  nodeId: 'n1',
  policy: 'acme/pol',
  service: { org: 'acme', url: 'svc', version: '1.0.0', arch: 'amd64' },
  state: 'Formed Proposal',
  createdAt: 100,
  updatedAt: 100,
  archived: false,
};

const archivedCopy = (agreement: AgbotAgreement, reason = 202): AgbotAgreement => ({
  ...agreement,
  archived: true,
  terminatedReason: reason,
  terminatedDescription: 'agreement cancelled',
  updatedAt: agreement.updatedAt + 1,
});

/**
 * The contract every AgbotStore keeps (lib/agbot-store/contract.ts), run against the SQLite store
 * (agbot/store/sqlite-store.test.ts) and the DynamoDB one (test/integration/agbot-state/).
 * Races are run for real: two handles on the same state, both writes sent at once.
 */
export function agbotStoreContract(name: string, fresh: () => Promise<StateUnderTest>): void {
  describe(`${name}: the AgbotStore contract`, () => {
    const opened: AgbotStore[] = [];
    const open = async (state: StateUnderTest) => {
      const store = await state.open();
      opened.push(store);
      return store;
    };
    const twoHandles = async () => {
      const state = await fresh();
      return [await open(state), await open(state)] as const;
    };
    afterEach(async () => {
      for (const store of opened.splice(0)) await store.close();
    });

    it('keeps the first messaging key stored, whoever stores another later', async () => {
      const [store, other] = await twoHandles();
      expect(await store.messagingKey()).toBeUndefined();
      expect(await store.keepMessagingKey('first')).toBe('first');
      expect(await other.keepMessagingKey('second')).toBe('first');
      expect(await other.messagingKey()).toBe('first');
    });

    it('moves the feed cursor only from the value expected', async () => {
      const [store] = await twoHandles();
      expect(await store.feedCursor()).toBeUndefined();
      expect(await store.advanceFeedCursor(undefined, 5)).toBe('advanced');
      expect(await store.feedCursor()).toBe(5);
      expect(await store.advanceFeedCursor(undefined, 7)).toBe('moved');
      expect(await store.advanceFeedCursor(4, 7)).toBe('moved');
      expect(await store.advanceFeedCursor(5, 9)).toBe('advanced');
      expect(await store.feedCursor()).toBe(9);
    });

    it('lets exactly one of two concurrent advances from the same value win', async () => {
      const [one, two] = await twoHandles();
      await one.advanceFeedCursor(undefined, 9);
      const outcomes = await Promise.all([one.advanceFeedCursor(9, 10), two.advanceFeedCursor(9, 11)]);
      expect([...outcomes].sort()).toEqual(['advanced', 'moved']);
      expect(await one.feedCursor()).toBe(outcomes[0] === 'advanced' ? 10 : 11);
    });

    it('keeps every field of an agreement, and leaves absent ones absent', async () => {
      const [store, other] = await twoHandles();
      const full: AgbotAgreement = {
        ...sampleAgreement,
        agreementId: 'a-full',
        policy: 'acme/pat_svc_acme_amd64',
        pattern: 'acme/pat',
        details: {
          protocolTimeoutS: 360,
          secrets: [{ serviceSecret: 'pw', candidates: ['app/pw', 'pw'], bindingIndex: 0 }],
          proposedAt: 120,
        },
      };
      expect(await store.saveAgreement(sampleAgreement)).toBe('saved');
      expect(await store.saveAgreement(full)).toBe('saved');
      expect(await other.getAgreement('a1')).toEqual(sampleAgreement);
      expect(await other.getAgreement('a-full')).toEqual(full);
      expect(await other.getAgreement('nope')).toBeUndefined();
    });

    it('updates a live agreement and lists live and archived ones apart, oldest first', async () => {
      const [store] = await twoHandles();
      const later = { ...sampleAgreement, agreementId: 'a0', nodeId: 'n2', createdAt: 200, updatedAt: 200 };
      const tie = { ...sampleAgreement, agreementId: 'b1', nodeId: 'n3' };
      await store.saveAgreement(later);
      await store.saveAgreement(tie);
      await store.saveAgreement(sampleAgreement);
      const finalized = { ...sampleAgreement, state: 'Finalized Agreement', updatedAt: 130 };
      expect(await store.saveAgreement(finalized)).toBe('saved');
      expect(await store.listAgreements(false)).toEqual([finalized, tie, later]);
      expect(await store.listAgreements(true)).toEqual([]);
      expect(await store.saveAgreement(archivedCopy(tie))).toBe('saved');
      expect(await store.listAgreements(false)).toEqual([finalized, later]);
      expect(await store.listAgreements(true)).toEqual([archivedCopy(tie)]);
      expect(await store.getAgreement('b1')).toEqual(archivedCopy(tie));
    });

    it('updates live agreements together, and leaves an archived or unknown one archived', async () => {
      const [store, other] = await twoHandles();
      const second = { ...sampleAgreement, agreementId: 'a2', nodeId: 'n2' };
      const third = { ...sampleAgreement, agreementId: 'a3', nodeId: 'n3' };
      for (const agreement of [sampleAgreement, second, third]) await store.saveAgreement(agreement);
      await store.saveAgreement(archivedCopy(second, 201));
      const marked = (a: AgbotAgreement) => ({
        ...a,
        state: 'Finalized Agreement',
        updatedAt: 300,
        details: { protocolTimeoutS: 360, secrets: [], proposedAt: 250 },
      });
      const never = { ...sampleAgreement, agreementId: 'never', nodeId: 'n9' };
      expect(
        await other.updateLiveAgreements([marked(sampleAgreement), marked(second), marked(third), never]),
      ).toEqual(['saved', 'archived', 'saved', 'archived']);
      expect(await store.getAgreement('a1')).toEqual(marked(sampleAgreement));
      expect(await store.getAgreement('a2')).toEqual(archivedCopy(second, 201));
      expect(await store.getAgreement('a3')).toEqual(marked(third));
      expect(await store.getAgreement('never')).toBeUndefined();
      expect(
        await store.liveAgreementNodes('acme/pol', ['acme/n1', 'acme/n2', 'acme/n3', 'acme/n9']),
      ).toEqual(new Set(['acme/n1', 'acme/n3']));
      expect(await store.updateLiveAgreements([])).toEqual([]);
    });

    it('reads many agreements at once, live or archived, the missing ones left out', async () => {
      const [store, other] = await twoHandles();
      const second = { ...sampleAgreement, agreementId: 'a2', nodeId: 'n2' };
      await store.saveAgreement(sampleAgreement);
      await store.saveAgreement(second);
      await store.saveAgreement(archivedCopy(second, 203));
      const found = await other.getAgreements(['a1', 'a2', 'nope', 'a1']);
      expect(found).toEqual(
        new Map([
          ['a1', sampleAgreement],
          ['a2', archivedCopy(second, 203)],
        ]),
      );
      expect(await other.getAgreements([])).toEqual(new Map());
    });

    it('refuses a second live agreement for a node and policy, and archiving frees the pair', async () => {
      const [store] = await twoHandles();
      const second = { ...sampleAgreement, agreementId: 'a2', createdAt: 150 };
      await store.saveAgreement(sampleAgreement);
      expect(await store.liveAgreementNodes('acme/pol', ['acme/n1', 'acme/n2'])).toEqual(
        new Set(['acme/n1']),
      );
      expect(await store.liveAgreementNodes('acme/other', ['acme/n1'])).toEqual(new Set());
      expect(await store.saveAgreement(second)).toBe('live-agreement-exists');
      expect(await store.getAgreement('a2')).toBeUndefined();
      expect(await store.saveAgreement({ ...second, agreementId: 'a3', policy: 'acme/other' })).toBe('saved');

      expect(await store.saveAgreement(archivedCopy(sampleAgreement))).toBe('saved');
      expect(await store.liveAgreementNodes('acme/pol', ['acme/n1'])).toEqual(new Set());
      expect(await store.saveAgreement(second)).toBe('saved');
      expect(await store.liveAgreementNodes('acme/pol', ['acme/n1'])).toEqual(new Set(['acme/n1']));
    });

    it('lets exactly one of two concurrent proposals to a node for a policy be saved', async () => {
      const [one, two] = await twoHandles();
      const outcomes = await Promise.all([
        one.saveAgreement({ ...sampleAgreement, agreementId: 'x1' }),
        two.saveAgreement({ ...sampleAgreement, agreementId: 'x2' }),
      ]);
      expect([...outcomes].sort()).toEqual(['live-agreement-exists', 'saved']);
      const live = await one.listAgreements(false);
      expect(live.map((a) => a.agreementId)).toEqual([outcomes[0] === 'saved' ? 'x1' : 'x2']);
    });

    it('keeps an archived agreement archived (a late update is refused, not resurrected)', async () => {
      const [store] = await twoHandles();
      await store.saveAgreement(sampleAgreement);
      await store.saveAgreement(archivedCopy(sampleAgreement, 201));
      const late = { ...sampleAgreement, state: 'Finalized Agreement', updatedAt: 300 };
      expect(await store.saveAgreement(late)).toBe('archived');
      expect(await store.saveAgreement(archivedCopy(sampleAgreement, 204))).toBe('archived');
      expect(await store.getAgreement('a1')).toEqual(archivedCopy(sampleAgreement, 201));
      expect(await store.liveAgreementNodes('acme/pol', ['acme/n1'])).toEqual(new Set());
      expect(await store.listAgreements(false)).toEqual([]);
    });

    it("keeps a node's ended agreements under a policy, oldest first, for version fallback", async () => {
      const [store, other] = await twoHandles();
      expect(await store.endedAgreements('acme', 'n1', 'acme/pol')).toEqual([]);
      const first = { ...sampleAgreement, details: { protocolTimeoutS: 0, secrets: [], repliedAt: 150 } };
      await store.saveAgreement(first);
      await store.saveAgreement({ ...archivedCopy(first, 103), updatedAt: 200 });
      const second = {
        ...sampleAgreement,
        agreementId: 'a2',
        service: { ...sampleAgreement.service, version: '2.0.0' },
      };
      await store.saveAgreement(second);
      expect(await other.endedAgreements('acme', 'n1', 'acme/pol')).toEqual([
        { version: '1.0.0', agreedAt: 150, endedAt: 200, reason: 103 },
      ]);
      await other.saveAgreement({ ...archivedCopy(second, 105), updatedAt: 300 });
      // Another node's and another policy's stay apart.
      await store.saveAgreement(archivedCopy({ ...sampleAgreement, agreementId: 'a3', nodeId: 'n2' }));
      await store.saveAgreement(
        archivedCopy({ ...sampleAgreement, agreementId: 'a4', policy: 'acme/other' }),
      );
      expect(await store.endedAgreements('acme', 'n1', 'acme/pol')).toEqual([
        { version: '1.0.0', agreedAt: 150, endedAt: 200, reason: 103 },
        { version: '2.0.0', endedAt: 300, reason: 105 },
      ]);
    });

    it('keeps search states per policy, with or without a session', async () => {
      const [store, other] = await twoHandles();
      expect(await store.getSearch('acme/pol')).toBeUndefined();
      await store.setSearch('acme/pol', { changedSince: 10, session: 'bot@1', fullScanAt: 1000 });
      await store.setSearch('pattern acme/pat', { changedSince: 0, fullScanAt: 2000 });
      expect(await other.getSearch('acme/pol')).toEqual({
        changedSince: 10,
        session: 'bot@1',
        fullScanAt: 1000,
      });
      await store.setSearch('acme/pol', { changedSince: 20, fullScanAt: 1000 });
      expect(await other.getSearch('acme/pol')).toEqual({ changedSince: 20, fullScanAt: 1000 });
      expect(await other.getSearch('pattern acme/pat')).toEqual({ changedSince: 0, fullScanAt: 2000 });
    });

    it('marks nodes to revisit per policy, once each, until they are revisited', async () => {
      const [store, other] = await twoHandles();
      expect(await store.revisits('acme/pol')).toEqual([]);
      await store.revisit('acme/pol', 'acme/n1');
      await store.revisit('acme/pol', 'acme/n1');
      await store.revisit('acme/pol', 'acme/n2');
      await store.revisit('acme/pol2', 'acme/n3');
      expect((await other.revisits('acme/pol')).sort()).toEqual(['acme/n1', 'acme/n2']);
      await other.revisited('acme/pol', ['acme/n1']);
      expect(await store.revisits('acme/pol')).toEqual(['acme/n2']);
      expect(await store.revisits('acme/pol2')).toEqual(['acme/n3']);
      await store.revisited('acme/pol', []);
      expect(await store.revisits('acme/pol')).toEqual(['acme/n2']);
    });
    it('keeps one status per policy, replaced whole, listed and dropped', async () => {
      const [store, other] = await twoHandles();
      const status: PolicyStatus = {
        policy: 'acme/pol',
        search: { at: 1000, full: true, found: 2, matched: 1, skipped: 1 },
        skipped: [{ node: 'acme/n2', reason: 'service arch arm64 is not amd64', since: 900 }],
      };
      const pattern: PolicyStatus = {
        policy: 'acme/pat_svc_acme_amd64',
        pattern: 'acme/pat',
        search: { at: 2000, full: true, found: 0, matched: 0, skipped: 0 },
        skipped: [],
      };
      expect(await store.policyStatus('acme/pol')).toBeUndefined();
      expect(await store.policyStatuses()).toEqual([]);
      await store.savePolicyStatus(status);
      await store.savePolicyStatus(pattern);
      expect(await other.policyStatus('acme/pol')).toEqual(status);
      const replaced = { ...status, search: { ...status.search, at: 3000, skipped: 0 }, skipped: [] };
      await other.savePolicyStatus(replaced);
      expect(await store.policyStatus('acme/pol')).toEqual(replaced);
      const listed = (await store.policyStatuses()).sort((a, b) => a.policy.localeCompare(b.policy));
      expect(listed).toEqual([pattern, replaced]);
      await store.dropPolicyStatus('acme/pol');
      await store.dropPolicyStatus('acme/none');
      expect(await other.policyStatuses()).toEqual([pattern]);
    });

    it("keeps a policy's rollout and its node rows, replaced whole, in the rollout's order", async () => {
      const [store, other] = await twoHandles();
      const record: RolloutRecord = {
        policy: 'acme/pol',
        target: '2.0.0',
        baseline: ['1.0.0'],
        phase: 'running',
        wave: 0,
        startedAt: 1,
        startSeq: 0,
        controlSeq: 0,
        acknowledgedAt: 0,
        approvedThrough: -1,
        lastDecision: { at: 1, action: 'advance', why: 'wave 1 opens' },
      };
      const row = (node: string, order: number): RolloutNode => ({
        policy: 'acme/pol',
        node,
        wave: order === 0 ? 0 : 1,
        order,
        state: 'waiting',
        since: 1,
      });
      expect(await store.rollout('acme/pol')).toBeUndefined();
      expect(await store.rolloutNodes('acme/pol')).toEqual([]);
      await store.saveRollout(record);
      await store.saveRolloutNodes([
        row('acme/b', 1),
        row('acme/a', 0),
        { ...row('acme/c', 0), policy: 'acme/other' },
      ]);
      expect(await other.rollout('acme/pol')).toEqual(record);
      expect((await other.rolloutNodes('acme/pol')).map((n) => n.node)).toEqual(['acme/a', 'acme/b']);
      const admitted: RolloutNode = { ...row('acme/b', 1), state: 'deploying', since: 5, admittedAt: 5 };
      await other.saveRolloutNodes([admitted]);
      await other.saveRollout({ ...record, wave: 1 });
      expect((await store.rolloutNodes('acme/pol'))[1]).toEqual(admitted);
      expect((await store.rollout('acme/pol'))?.wave).toBe(1);
      await store.dropRolloutNodes('acme/pol');
      expect(await other.rolloutNodes('acme/pol')).toEqual([]);
      expect(await other.rolloutNodes('acme/other')).toHaveLength(1);
    });
  });
}
