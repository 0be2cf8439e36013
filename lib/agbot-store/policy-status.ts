/**
 * The agbot's per-policy status (docs/agbot.md "Status"): how the round folds one search into the
 * stored status, and how the status API and the Exchange's read-only route turn stored statuses
 * and live agreements into their answer. Shared by agbot/ and functions/, so it lives in lib/.
 */
import { AGBOT_STATES } from '#lib/protocol/agreement-states';
import type { AgbotAgreement, PolicyStatus, SkippedNode } from './contract.ts';

/** Skipped nodes kept per policy, newest first: the record stays a few kilobytes at any fleet size. */
export const SKIPPED_KEPT = 25;
/** A reason longer than this is cut (a policy mismatch can quote long constraints). */
const REASON_MAX = 200;

/** What one search of a policy saw: the nodes it returned and what became of each. */
export interface SearchOutcome {
  full: boolean;
  /** Every node looked at (returned by the search, or marked to revisit). */
  found: string[];
  /** Nodes that passed every check. */
  matched: string[];
  /** Node → the reason a check failed. */
  skipped: Map<string, string>;
}

/**
 * The status after `outcome`, or undefined when nothing but the time would change (no write). A
 * full search replaces the skipped nodes (a node it did not return is gone, or has an agreement);
 * a search of changed nodes replaces only the entries of the nodes it looked at.
 */
export function nextStatus(
  previous: PolicyStatus | undefined,
  target: { policy: string; pattern?: string | undefined },
  outcome: SearchOutcome,
  now: number,
): PolicyStatus | undefined {
  if (!outcome.full && outcome.found.length === 0 && previous) return undefined;
  const before = new Map((previous?.skipped ?? []).map((s) => [s.node, s]));
  const looked = new Set(outcome.found);
  const kept = outcome.full ? [] : [...before.values()].filter((s) => !looked.has(s.node));
  const fresh = [...outcome.skipped].map(([node, reason]): SkippedNode => {
    const cut = reason.length > REASON_MAX ? `${reason.slice(0, REASON_MAX - 1)}…` : reason;
    const old = before.get(node);
    return { node, reason: cut, since: old?.reason === cut ? old.since : now };
  });
  const skipped = [...fresh, ...kept]
    .sort((a, b) => b.since - a.since || a.node.localeCompare(b.node))
    .slice(0, SKIPPED_KEPT);
  const search = {
    at: now,
    full: outcome.full,
    found: outcome.found.length,
    matched: outcome.matched.length,
    skipped: outcome.skipped.size,
  };
  const next: PolicyStatus = {
    policy: target.policy,
    ...(target.pattern === undefined ? {} : { pattern: target.pattern }),
    search,
    skipped,
  };
  if (previous && sameStatus(previous, next)) return undefined;
  return next;
}

const sameStatus = (a: PolicyStatus, b: PolicyStatus): boolean =>
  JSON.stringify({ ...a, search: { ...a.search, at: 0 } }) ===
  JSON.stringify({ ...b, search: { ...b.search, at: 0 } });

/** One policy's answer (GET /policy/{org}/{name}, and the Exchange's agbotstatus route). */
export interface PolicyReport {
  org: string;
  name: string;
  pattern?: string;
  /** Nodes that passed the checks and hold a live agreement: proposed + agreed. */
  matched: number;
  /** Live agreements the node has not agreed to yet. */
  proposed: number;
  /** Finalized agreements. */
  agreed: number;
  /** Finalized agreements whose node's last status report shows every container running. */
  running: number;
  /** Finalized agreements whose node's last status report shows a container exited, dead or restarting. */
  failing: number;
  lastSearch?: { at: string; full: boolean; found: number; matched: number; skipped: number };
  skipped: { node: string; reason: string; since: string }[];
}

/** Who may see which node names: `undefined` sees all (root, hub admins, the standalone API). */
export type NodeOrgFilter = ((nodeOrg: string) => boolean) | undefined;

const iso = (ms: number) => new Date(ms).toISOString();
const orgOf = (full: string) => full.slice(0, Math.max(0, full.indexOf('/')));
const splitPolicy = (policy: string) => {
  const at = policy.indexOf('/');
  return { org: policy.slice(0, at), name: policy.slice(at + 1) };
};

/**
 * The report of `policy` from its stored status (if any) and the live agreements. `running` and
 * `failing` are what the nodes report (their status, read by agbot/rounds/workload-status.ts):
 * an agreement whose node has not reported its workload yet is neither.
 */
export function policyReport(
  policy: string,
  status: PolicyStatus | undefined,
  live: AgbotAgreement[],
  visible: NodeOrgFilter = undefined,
): PolicyReport {
  const mine = live.filter((a) => a.policy === policy && !a.archived);
  const agreed = mine.filter((a) => a.state === AGBOT_STATES.finalized);
  const reported = (state: 'running' | 'failing') =>
    agreed.filter((a) => a.details?.workload?.state === state).length;
  const pattern = status?.pattern ?? mine.find((a) => a.pattern)?.pattern;
  return {
    ...splitPolicy(policy),
    ...(pattern === undefined ? {} : { pattern }),
    matched: mine.length,
    proposed: mine.length - agreed.length,
    agreed: agreed.length,
    running: reported('running'),
    failing: reported('failing'),
    ...(status ? { lastSearch: { ...status.search, at: iso(status.search.at) } } : {}),
    skipped: (status?.skipped ?? [])
      .filter((s) => visible === undefined || visible(orgOf(s.node)))
      .map((s) => ({ node: s.node, reason: s.reason, since: iso(s.since) })),
  };
}

/** Every policy with a status or a live agreement, `<org>/<name>`, sorted; of `org` only if given. */
export function reportedPolicies(statuses: PolicyStatus[], live: AgbotAgreement[], org?: string): string[] {
  const all = new Set([...statuses.map((s) => s.policy), ...live.map((a) => a.policy)]);
  return [...all].filter((p) => org === undefined || splitPolicy(p).org === org).sort();
}

/** Upstream's `GET /policy` shape: org → the names of its policies this agbot hosts. */
export function policyNames(policies: string[]): Record<string, string[]> {
  const names: Record<string, string[]> = {};
  for (const policy of policies) {
    const { org, name } = splitPolicy(policy);
    names[org] = [...(names[org] ?? []), name];
  }
  return names;
}
