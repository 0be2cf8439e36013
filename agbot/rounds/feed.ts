import type { RoundContext } from './context.ts';
import { changesAnswer, type FeedChange } from './wire.ts';

const CURSOR = 'feedCursor';
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
  /** `org/name` of deployment policies changed or deleted. */
  policies: Set<string>;
  /** `org/name` of deployment patterns changed or deleted. */
  patterns: Set<string>;
  /** `org/id` of nodes whose record or policy changed. */
  nodes: Set<string>;
  nodesDeleted: Set<string>;
  /** `org/name` of secrets written or deleted. */
  secrets: Set<string>;
  /** The agbot's served policies or patterns changed. */
  served: boolean;
  /** Orgs that appeared in the feed (serve-all serves them). */
  orgs: Set<string>;
  /** A service, secret, served row or deleted node agreement changed: every policy is searched. */
  catalogChanged: boolean;
  /** Stores the cursor: called once the round has acted on these changes. */
  commit(): void;
}

/**
 * POST /orgs/{org}/changes from the stored cursor: also the agbot's heartbeat. A multi-tenant
 * agbot (org IBM) reads every org's changes (`orgList: ["*"]`). The cursor moves only when the
 * round commits, so a round that fails is read again.
 */
export async function readFeed(ctx: RoundContext): Promise<FeedSummary> {
  const stored = ctx.store.getMeta(CURSOR);
  let from = stored === undefined ? 0 : Number(stored) + 1;
  const summary: FeedSummary = {
    mailbox: false,
    policies: new Set(),
    patterns: new Set(),
    nodes: new Set(),
    nodesDeleted: new Set(),
    secrets: new Set(),
    served: false,
    orgs: new Set(),
    catalogChanged: false,
    commit: () => undefined,
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
    if (!answer.hitMaxRecords) break;
    from = last + 1;
  }
  summary.commit = () => ctx.store.setMeta(CURSOR, String(last));
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
      break;
    case 'pattern':
      summary.patterns.add(key);
      break;
    case 'node':
    case 'nodepolicies':
      if (change.operation === 'deleted' && change.resource === 'node') summary.nodesDeleted.add(key);
      else summary.nodes.add(key);
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
