import type { CursorOutcome } from '#lib/agbot-store/contract';
import type { RoundContext } from './context.ts';
import { changesAnswer, type FeedChange, maxChangeIdAnswer } from './wire.ts';

const PAGE = 1000;
/** Pages read in one round at most; the rest is read next round. */
const MAX_PAGES = 10;

/** Resources (besides nodes, policies and patterns, tracked one by one) whose change can unblock a node for any policy or pattern. */
const CATALOG_INPUTS = new Set([
  'nodeagreements',
  'service',
  'servicepolicies',
  'secret',
  'agbotbusinesspols',
  'org',
]);

/** What the feed says the round must look at (agbot docs "A round", step 1). */
export interface FeedSummary {
  /** The agbot's mailbox has new messages. */
  mailbox: boolean;
  /**
   * The round read MAX_PAGES pages and the feed had more: changes it has not seen yet may include
   * its mailbox's (a fleet's registrations ahead of the replies to its proposals).
   */
  backlog: boolean;
  /** `org/name` of deployment policies changed or deleted. */
  policies: Set<string>;
  /** The newest change id among those of `policies`, by policy (infinite when the Exchange gave none). */
  policyChangeIds: Map<string, number>;
  /** `org/name` of deployment policies whose rollout plan or operator actions changed (docs/rollouts.md). */
  rollouts: Set<string>;
  /** `org/name` of deployment patterns changed or deleted. */
  patterns: Set<string>;
  /** `org/id` of nodes whose record or policy changed. */
  nodes: Set<string>;
  /**
   * The newest change id among those of `nodes`, by node (infinite when the Exchange gave none):
   * governance looks again at an agreement only for a change its proposal had not seen.
   */
  nodeChangeIds: Map<string, number>;
  /**
   * Every change numbered up to this id was written before this round's reads of nodes, so what
   * the round reads holds it (an agreement proposed now keeps it: `AgreementDetails.feedSeenUpTo`).
   */
  seenUpTo: number;
  nodesDeleted: Set<string>;
  /** `org/id` of nodes whose status report (what runs on them) changed. */
  statuses: Set<string>;
  /** `org/name` of secrets written or deleted. */
  secrets: Set<string>;
  /** The agbot's served policies or patterns changed. */
  served: boolean;
  /** Orgs that appeared in the feed (serve-all serves them). */
  orgs: Set<string>;
  /** A service, secret, served row or deleted node agreement changed: every policy is searched. */
  catalogChanged: boolean;
  /**
   * Stores the cursor: called once the round has acted on these changes. `moved`: an overlapping
   * round committed first (the store's conditional write), so this one's work was a repeat.
   */
  commit(): Promise<CursorOutcome>;
}

/**
 * POST /orgs/{org}/changes from the stored cursor: also the agbot's heartbeat. A multi-tenant
 * agbot (org IBM) reads every org's changes (`orgList: ["*"]`). The cursor moves only when the
 * round commits, and only from where this round read it, so a round that fails is read again
 * and two overlapping rounds cannot both move it.
 */
export async function readFeed(ctx: RoundContext): Promise<FeedSummary> {
  const stored = await ctx.store.feedCursor();
  let from = stored === undefined ? 0 : stored + 1;
  const summary: FeedSummary = {
    mailbox: false,
    backlog: false,
    policies: new Set(),
    policyChangeIds: new Map(),
    rollouts: new Set(),
    patterns: new Set(),
    nodes: new Set(),
    nodeChangeIds: new Map(),
    seenUpTo: 0,
    nodesDeleted: new Set(),
    statuses: new Set(),
    secrets: new Set(),
    served: false,
    orgs: new Set(),
    catalogChanged: false,
    commit: async () => 'advanced',
  };
  let last = from - 1;
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = changesAnswer.parse(
      await ctx.exchange.changes({
        changeId: from,
        maxRecords: PAGE,
        ...(ctx.config.org === 'IBM' ? { orgList: ['*'] } : {}),
      }),
    );
    for (const change of answer.changes) note(ctx, summary, change);
    last = Math.max(answer.mostRecentChangeId, last);
    summary.backlog = answer.hitMaxRecords === true;
    if (!summary.backlog) break;
    from = last + 1;
  }
  summary.seenUpTo = summary.backlog ? await newestChangeId(ctx, last) : last;
  // An idle round read nothing new: no write (on DynamoDB, no write capacity either).
  if (last !== stored) summary.commit = () => ctx.store.advanceFeedCursor(stored, last);
  return summary;
}

function note(ctx: RoundContext, summary: FeedSummary, change: FeedChange): void {
  const key = `${change.orgId}/${change.id}`;
  summary.orgs.add(change.orgId);
  if (CATALOG_INPUTS.has(change.resource)) summary.catalogChanged = true;
  switch (change.resource) {
    case 'agbotmsgs':
      if (change.orgId === ctx.config.org && change.id === ctx.config.id) summary.mailbox = true;
      break;
    case 'policy':
      summary.policies.add(key);
      summary.policyChangeIds.set(key, Math.max(summary.policyChangeIds.get(key) ?? 0, newestOf(change)));
      break;
    case 'pattern':
      summary.patterns.add(key);
      break;
    case 'rollout':
      summary.rollouts.add(key);
      break;
    case 'node':
    case 'nodepolicies':
      if (change.operation === 'deleted' && change.resource === 'node') summary.nodesDeleted.add(key);
      else {
        summary.nodes.add(key);
        summary.nodeChangeIds.set(key, Math.max(summary.nodeChangeIds.get(key) ?? 0, newestOf(change)));
      }
      break;
    case 'nodestatus':
      summary.statuses.add(key);
      break;
    case 'secret':
      summary.secrets.add(key);
      break;
    case 'agbotbusinesspols':
    case 'agbotpatterns':
      if (change.orgId === ctx.config.org && change.id === ctx.config.id) summary.served = true;
      break;
  }
}

/** The newest id among a grouped change's rows; infinite when the Exchange listed none. */
function newestOf(change: FeedChange): number {
  const ids = (change.resourceChanges ?? []).map((row) => row.changeId);
  return ids.length > 0 ? Math.max(...ids) : Number.POSITIVE_INFINITY;
}

/**
 * The feed's newest id, for a round that stopped reading before it (a fleet's registrations ahead
 * of it): one GET. Where the Exchange does not answer it, what the round read is a lower bound.
 */
async function newestChangeId(ctx: RoundContext, readUpTo: number): Promise<number> {
  const answer = maxChangeIdAnswer.safeParse(await ctx.exchange.maxChangeId().catch(() => undefined));
  return answer.success ? Math.max(answer.data.maxChangeId, readUpTo) : readUpTo;
}
