/**
 * What the agreement bot keeps between rounds, as one interface with two implementations: SQLite
 * for the standalone program (agbot/store/sqlite-store.ts) and the Exchange's DynamoDB table for
 * the agbot that runs as functions of the stack (tables/agbot-state/). It lives in lib/ because
 * both floors implement it (docs/agbot.md "What it keeps"); one contract test suite holds both to it
 * (agbot/test-support/store-contract.ts).
 */

import type { RolloutNode, RolloutRecord } from '#lib/rollout/states';

/** An agreement as the agbot keeps it (docs/protocol.md#agreement-rows-and-states states, docs/protocol.md#reason-codes reasons). */
export interface AgbotAgreement {
  agreementId: string;
  nodeOrg: string;
  nodeId: string;
  /** `<org>/<name>` of the deployment policy, or `<pattern org>/<internal name>` of the pattern service, that led to it. */
  policy: string;
  /** `<org>/<pattern>` for a pattern agreement (governance finds it by this); absent for a policy's. */
  pattern?: string;
  service: { org: string; url: string; version: string; arch: string };
  state: string;
  createdAt: number;
  updatedAt: number;
  archived: boolean;
  terminatedReason?: number;
  terminatedDescription?: string;
  /** What the round needs later (names of bound secrets, never values; timers). */
  details?: AgreementDetails;
}

/** Per-agreement protocol bookkeeping, kept beside the agreement (no secret value in it). */
export interface AgreementDetails {
  /** Seconds without a reply before cancel 201 (docs/protocol.md#timeouts). */
  protocolTimeoutS: number;
  /** Bound secrets of the agreement's service: the secrets-manager names tried, in order. */
  secrets: { serviceSecret: string; candidates: string[]; bindingIndex: number }[];
  /**
   * The change id up to which the node's record and policy were read for the proposal (the round's
   * `FeedSummary.seenUpTo`): a change of the node numbered at or below it needs no second look.
   */
  feedSeenUpTo?: number;
  /** When the proposal went out (ms); undefined while it is being sent. */
  proposedAt?: number;
  repliedAt?: number;
  secretsUpdatedAt?: number;
  secretsAckedAt?: number;
  /** The policy's or pattern's `nodeHealth` (agbot/rounds/node-health.ts judges the agreement by it). */
  nodeHealth?: { missing_heartbeat_interval?: number; check_agreement_status?: number };
  /**
   * The workload's state in the node's last status report that named it, and when the round read
   * it (agbot/rounds/workload-status.ts); absent until a report shows it running or failing.
   */
  workload?: { state: 'running' | 'failing'; at: number };
}

/** An ended agreement of a node under a policy, as version fallback reads it (times in ms). */
export interface EndedAgreement {
  version: string;
  /** When the node agreed (the agbot finalized); undefined if it never did. */
  agreedAt?: number | undefined;
  endedAt: number;
  /** The reason it ended with (the node's own code when the node cancelled). */
  reason?: number | undefined;
}

/** The ended agreement an archived agreement leaves in the node's history. */
export const endedAgreementOf = (agreement: AgbotAgreement): EndedAgreement => ({
  version: agreement.service.version,
  ...(agreement.details?.repliedAt === undefined ? {} : { agreedAt: agreement.details.repliedAt }),
  endedAt: agreement.updatedAt,
  ...(agreement.terminatedReason === undefined ? {} : { reason: agreement.terminatedReason }),
});

/** One served policy's search state (docs/protocol.md#searching-for-candidates search session). */
export interface SearchState {
  /** Epoch seconds: nodes changed since then are searched; 0 = every node. */
  changedSince: number;
  /** The paging session of an unfinished search, else undefined. */
  session?: string;
  /** When the last full search (changedSince 0) started, ms. */
  fullScanAt: number;
}

/** A node the last searches of a policy skipped, and why (the check that failed). */
export interface SkippedNode {
  /** `<org>/<id>`. */
  node: string;
  reason: string;
  /** When the node was first skipped for this reason (ms): an unchanged reason is not rewritten. */
  since: number;
}

/**
 * What the searches of one served policy (or pattern service) saw (docs/agbot.md "Status"): the
 * figures of the last search that looked at nodes, and the most recent skipped nodes with their
 * reasons (at most SKIPPED_KEPT, newest first). Written by the round only when it changed.
 */
export interface PolicyStatus {
  /** `<org>/<name>` of the deployment policy, or `<pattern org>/<internal name>` of the pattern service. */
  policy: string;
  /** `<org>/<pattern>` of a pattern service's status. */
  pattern?: string;
  search: {
    /** When the search that gave these figures ran (ms); a later search with the same figures keeps it. */
    at: number;
    /** A full search (every candidate node), or one of the nodes changed since the last. */
    full: boolean;
    /** Nodes the Exchange returned (candidates without an agreement for the service). */
    found: number;
    /** Of those, nodes that passed every check (proposed to). */
    matched: number;
    /** Of those, nodes a check failed for. */
    skipped: number;
  };
  skipped: SkippedNode[];
}

/**
 * What saving an agreement did. `live-agreement-exists`: the agreement is new and the node already
 * has a live agreement for the policy (another round proposed first), so nothing was written and
 * nothing may be sent. `archived`: the agreement was archived already (archiving is final), so
 * nothing was written.
 */
export type SaveOutcome = 'saved' | 'live-agreement-exists' | 'archived';

/** What moving the feed cursor did. `moved`: it no longer held the expected value (an overlapping round moved it). */
export type CursorOutcome = 'advanced' | 'moved';

/**
 * The agbot's state. Every method is a promise; the writes that two overlapping rounds could race
 * on are conditional, so the loser is told (an outcome, not an exception) and can skip.
 */
export interface AgbotStore {
  /** The PEM of the messaging private key, if one was kept. */
  messagingKey(): Promise<string | undefined>;
  /** Keeps `pem` unless a key is kept already; resolves the key kept (the first one wins). */
  keepMessagingKey(pem: string): Promise<string>;

  /** The id of the last change the rounds have acted on (undefined before the first round). */
  feedCursor(): Promise<number | undefined>;
  /** Moves the cursor to `next` only if it still is `expected` (read when the round began). */
  advanceFeedCursor(expected: number | undefined, next: number): Promise<CursorOutcome>;

  /**
   * Creates or updates an agreement. A live agreement is created only if the node has no other
   * live agreement for the policy; saving it archived frees the (node, policy) pair.
   */
  saveAgreement(agreement: AgbotAgreement): Promise<SaveOutcome>;
  /**
   * Saves changes to agreements the store holds live (a sent proposal's mark, a finalization, a
   * workload's state; never their node or policy), distinct ones, written together: each
   * `saved`, or `archived` when it is not live (archived meanwhile), which nothing brings back.
   */
  updateLiveAgreements(agreements: AgbotAgreement[]): Promise<SaveOutcome[]>;
  getAgreement(agreementId: string): Promise<AgbotAgreement | undefined>;
  /** getAgreement of many at once: the ones found, by id. */
  getAgreements(agreementIds: string[]): Promise<Map<string, AgbotAgreement>>;
  /** Live (false) or archived (true) agreements, oldest first. */
  listAgreements(archived: boolean): Promise<AgbotAgreement[]>;
  /**
   * The node's ended agreements under the policy, oldest first: what version fallback decides by
   * (agbot/rounds/version-preference.ts). Only read when a version has retry settings.
   */
  endedAgreements(nodeOrg: string, nodeId: string, policy: string): Promise<EndedAgreement[]>;
  /** Which of `nodes` (`<org>/<id>`) have a live agreement under the policy: the round never proposes twice. */
  liveAgreementNodes(policy: string, nodes: string[]): Promise<Set<string>>;

  getSearch(policy: string): Promise<SearchState | undefined>;
  setSearch(policy: string, state: SearchState): Promise<void>;
  /**
   * Marks a node for its policy's next search. A node that ends an agreement may have changed
   * before the agbot read the cancel: the search that saw the change skipped it (the agreement was
   * still live) and moved past it, so without this the node would wait for the full rescan.
   */
  revisit(policy: string, node: string): Promise<void>;
  /** The nodes marked for the policy's next search (`<org>/<id>`). */
  revisits(policy: string): Promise<string[]>;
  /** The nodes looked at again: unmarked. */
  revisited(policy: string, nodes: string[]): Promise<void>;

  /** The status of a served policy's searches, if one was recorded. */
  policyStatus(policy: string): Promise<PolicyStatus | undefined>;
  /** Replaces the policy's status (one small record per policy; the round writes it only when it changed). */
  savePolicyStatus(status: PolicyStatus): Promise<void>;
  /** Every recorded status (the status API answers from them and the live agreements). */
  policyStatuses(): Promise<PolicyStatus[]>;
  /** Forgets the status of a policy no longer served. */
  dropPolicyStatus(policy: string): Promise<void>;

  /** The rollout of a policy with a plan (docs/rollouts.md), if one started. */
  rollout(policy: string): Promise<RolloutRecord | undefined>;
  /** Replaces the rollout record (the commit point of each gate decision). */
  saveRollout(record: RolloutRecord): Promise<void>;
  /** Every targeted node of the policy's rollout, in the rollout's order. */
  rolloutNodes(policy: string): Promise<RolloutNode[]>;
  /** Creates or replaces node rows (each row is written whole: a crash leaves each row old or new). */
  saveRolloutNodes(nodes: RolloutNode[]): Promise<void>;
  /** Forgets the policy's node rows (a new rollout of the policy starts from scratch). */
  dropRolloutNodes(policy: string): Promise<void>;

  close(): Promise<void>;
}
