/**
 * Node health governance (docs/agbot.md "Node health"). A finalized agreement whose deployment
 * policy or pattern sets `nodeHealth` ends
 * - with 208 when its node has not heartbeated for `missing_heartbeat_interval` seconds, and
 * - with 209 when its node still has no record of it in the Exchange `check_agreement_status`
 *   seconds after the agbot finalized it (the node lost or never stored it),
 * as upstream's agbot does (open-horizon/anax `agreementbot/nodehealth_manager.go`).
 *
 * Cost: one nodehealth search per policy org or pattern with such agreements, at most every
 * `check_agreement_status` seconds (the shortest of the group's); the search returns only nodes
 * that heartbeated within the longest missing interval, so an idle fleet's answer stays small.
 * The Exchange reads heartbeats where they live (the node's liveness item), so nodes that
 * heartbeat cheaply are judged right.
 */

import type { AgbotAgreement } from '#lib/agbot-store/contract';
import { REASON } from '#lib/protocol/reason-codes';
import { cancelAgreement } from './cancel.ts';
import { type RoundContext, splitId } from './context.ts';
import type { LiveAgreements } from './live-agreements.ts';
import { readMailbox } from './mailbox.ts';

export interface NodeHealthSettings {
  missingHeartbeatS: number;
  checkAgreementS: number;
}

/** What the nodehealth search says of one node. */
export interface NodeHealthReport {
  lastHeartbeat: string;
  agreements: Record<string, unknown>;
}

/** The settings an agreement carries; undefined when its policy or pattern sets none. */
export function healthSettingsOf(agreement: AgbotAgreement): NodeHealthSettings | undefined {
  const health = agreement.details?.nodeHealth;
  const missingHeartbeatS = health?.missing_heartbeat_interval ?? 0;
  const checkAgreementS = health?.check_agreement_status ?? 0;
  return missingHeartbeatS > 0 || checkAgreementS > 0 ? { missingHeartbeatS, checkAgreementS } : undefined;
}

/**
 * The reason to end the agreement, or undefined while the node is healthy. `report` is undefined
 * when the search (of nodes heartbeating since `searchedSinceMs`) did not return the node.
 */
export function healthVerdict(
  agreement: { agreementId: string; agreedAt: number },
  settings: NodeHealthSettings,
  report: NodeHealthReport | undefined,
  searchedSinceMs: number,
  nowMs: number,
): typeof REASON.agbotNodeHeartbeatStopped | typeof REASON.agbotAgreementMissingOnNode | undefined {
  if (settings.missingHeartbeatS > 0) {
    // Upstream's timestamps may end with a zone suffix (`…Z[UTC]`).
    const heartbeatMs = report
      ? Date.parse(report.lastHeartbeat.replace(/\[.*\]$/, ''))
      : searchedSinceMs - 1;
    const silentS = (nowMs - (Number.isNaN(heartbeatMs) ? 0 : heartbeatMs)) / 1000;
    if (silentS >= settings.missingHeartbeatS) return REASON.agbotNodeHeartbeatStopped;
  }
  if (settings.checkAgreementS > 0 && report && !(agreement.agreementId in report.agreements)) {
    if (nowMs > agreement.agreedAt + settings.checkAgreementS * 1000)
      return REASON.agbotAgreementMissingOnNode;
  }
  return undefined;
}

interface Group {
  /** The Exchange call that reports on the group's nodes. */
  search: (lastTime: string) => Promise<unknown>;
  agreements: { agreement: AgbotAgreement; settings: NodeHealthSettings; agreedAt: number }[];
}

/** Checks the node health of finalized agreements whose check is due; returns how many it cancelled. */
export async function governNodeHealth(ctx: RoundContext, live: LiveAgreements): Promise<number> {
  // Most rounds have no check due: they skip the grouping and the searches.
  if (ctx.now() < (ctx.memory.nodeHealthCheckedAt.get(NEXT_DUE) ?? 0)) return 0;
  const groups = groupByCheck(ctx, live.list());
  const mailbox = { read: false };
  const missing = ctx.memory.missingOnNodeSince;
  let cancelled = 0;
  let nextDue = ctx.now() + IDLE_LOOK_MS;
  for (const [key, group] of groups) {
    const everyMs = Math.min(...group.agreements.map(({ settings }) => shortestPeriodS(settings))) * 1000;
    const last = ctx.memory.nodeHealthCheckedAt.get(key) ?? 0;
    if (ctx.now() - last < everyMs) {
      nextDue = Math.min(nextDue, last + everyMs);
      continue;
    }
    nextDue = Math.min(nextDue, ctx.now() + everyMs);
    const longestS = Math.max(...group.agreements.map(({ settings }) => settings.missingHeartbeatS));
    const sinceMs = longestS > 0 ? ctx.now() - longestS * 1000 : 0;
    const reports = readReports(await group.search(sinceMs > 0 ? new Date(sinceMs).toISOString() : ''));
    for (const { agreement, settings, agreedAt } of group.agreements) {
      const node = reports.get(`${agreement.nodeOrg}/${agreement.nodeId}`);
      const reason = healthVerdict({ ...agreement, agreedAt }, settings, node, sinceMs, ctx.now());
      if (reason !== REASON.agbotAgreementMissingOnNode) missing.delete(agreement.agreementId);
      if (reason === undefined) continue;
      // Missing on the node: first seen now, ended only if the next search still misses it.
      if (reason === REASON.agbotAgreementMissingOnNode && !missing.has(agreement.agreementId)) {
        missing.set(agreement.agreementId, ctx.now());
        continue;
      }
      missing.delete(agreement.agreementId);
      if (!(await stillLiveAfterMailbox(ctx, agreement.agreementId, mailbox))) {
        live.ended(agreement.agreementId);
        continue;
      }
      ctx.log.info('node health: agreement ended', {
        agreement: agreement.agreementId,
        node: `${agreement.nodeOrg}/${agreement.nodeId}`,
        reason,
        ...(node ? { lastHeartbeat: node.lastHeartbeat } : { lastHeartbeat: 'none in the interval' }),
      });
      await cancelAgreement(ctx, agreement, reason);
      live.ended(agreement.agreementId);
      cancelled += 1;
    }
    ctx.memory.nodeHealthCheckedAt.set(key, ctx.now());
  }
  ctx.memory.nodeHealthCheckedAt.set(NEXT_DUE, nextDue);
  const stillLive = new Set(live.list().map((a) => a.agreementId));
  for (const id of missing.keys()) if (!stillLive.has(id)) missing.delete(id);
  return cancelled;
}

/**
 * Before ending an agreement for its node's health, the mailbox is read once more: a node that
 * ended the agreement itself deletes its Exchange row and sends its cancel, and its reason (a
 * workload failure counts for version fallback) must win over the agbot's "missing on node".
 */
async function stillLiveAfterMailbox(
  ctx: RoundContext,
  agreementId: string,
  mailbox: { read: boolean },
): Promise<boolean> {
  if (!mailbox.read) {
    mailbox.read = true;
    await readMailbox(ctx);
  }
  const agreement = await ctx.store.getAgreement(agreementId);
  return agreement !== undefined && !agreement.archived;
}

/** Where the earliest next check is kept beside the groups' last checks. */
const NEXT_DUE = 'next-due';
/** Agreements finalized since the last look are first looked at within this (a round reads them then). */
const IDLE_LOOK_MS = 60_000;

const shortestPeriodS = (s: NodeHealthSettings): number =>
  Math.min(...[s.missingHeartbeatS, s.checkAgreementS].filter((v) => v > 0));

/** Finalized agreements with node health settings, by the search that covers their nodes. */
function groupByCheck(ctx: RoundContext, agreements: AgbotAgreement[]): Map<string, Group> {
  const groups = new Map<string, Group & { nodeOrgs: Set<string> }>();
  for (const agreement of agreements) {
    const settings = healthSettingsOf(agreement);
    const agreedAt = agreement.details?.repliedAt;
    if (!settings || agreedAt === undefined) continue;
    const key = agreement.pattern ? `pattern:${agreement.pattern}` : `policy:${splitId(agreement.policy)[0]}`;
    let group = groups.get(key);
    if (!group) {
      const nodeOrgs = new Set<string>();
      const [org, name] = splitId(agreement.pattern ?? agreement.policy);
      const body = (lastTime: string) => ({ lastTime, nodeOrgids: [...nodeOrgs] });
      group = {
        nodeOrgs,
        agreements: [],
        search: agreement.pattern
          ? (lastTime) => ctx.exchange.patternNodeHealth(org, name, body(lastTime))
          : (lastTime) => ctx.exchange.nodeHealth(org, body(lastTime)),
      };
      groups.set(key, group);
    }
    group.nodeOrgs.add(agreement.nodeOrg);
    group.agreements.push({ agreement, settings, agreedAt });
  }
  return groups;
}

/** The search's answer as a map by `<org>/<node>`; anything malformed reads as "not returned". */
function readReports(answer: unknown): Map<string, NodeHealthReport> {
  const nodes = (answer as { nodes?: unknown } | undefined)?.nodes;
  const reports = new Map<string, NodeHealthReport>();
  if (!nodes || typeof nodes !== 'object') return reports;
  for (const [id, value] of Object.entries(nodes)) {
    const v = value as Partial<NodeHealthReport> | null;
    if (!v || typeof v.lastHeartbeat !== 'string') continue;
    const agreements = v.agreements && typeof v.agreements === 'object' ? v.agreements : {};
    reports.set(id, { lastHeartbeat: v.lastHeartbeat, agreements });
  }
  return reports;
}
