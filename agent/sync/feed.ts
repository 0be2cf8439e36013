import type { Credentials } from '../exchange/client.ts';
import type { NodeRecord } from '../node/record.ts';
import { postChanges } from '../protocol/exchange-calls.ts';
import type { AgentContext } from '../runtime/context.ts';

/**
 * Every synced document (and the mailbox) is read again at least this often, even when the feed
 * names none: a slow safety net for a change row missed (docs/agent.md, "Polling the Exchange").
 */
export const SAFETY_REREAD_MS = 6 * 60 * 60_000;

/** The feed cursor in the store (kept under the key the agreement protocol used before). */
const CURSOR = 'protocol.changes';

interface Cursor {
  node: string;
  changeId: number;
}

/** What one `POST /orgs/{org}/changes` said about this node. */
export interface FeedNews {
  /** Resources (`node`, `nodepolicies`, `nodemsgs`...) of rows about this node since the last read. */
  aboutNode: Set<string>;
  /** Whether a node management policy of the node's org changed (`mgmtpolicy` rows name the policy, not the node). */
  managementPolicies: boolean;
  /** The signal channel's address, when the Exchange announces one (docs/signals.md). */
  signalsUrl: string | undefined;
}

/**
 * The round's one Exchange request: `POST /orgs/{org}/changes` from the stored cursor. For the
 * Exchange it is also the node's heartbeat (docs/exchange.md#change-feed), as in upstream's agent.
 */
export async function readFeed(ctx: AgentContext, node: NodeRecord, creds: Credentials): Promise<FeedNews> {
  const who = `${node.organization}/${node.id}`;
  const stored = ctx.store.get<Cursor>(CURSOR);
  const from = stored?.node === who ? stored.changeId + 1 : 0;
  const answer = await postChanges(ctx, creds, from);
  ctx.store.set(CURSOR, { node: who, changeId: Math.max(answer.mostRecentChangeId, from - 1) });
  const aboutNode = new Set(
    answer.changes.filter((c) => c.orgId === node.organization && c.id === node.id).map((c) => c.resource),
  );
  const managementPolicies = answer.changes.some(
    (c) => c.orgId === node.organization && c.resource === 'mgmtpolicy',
  );
  return { aboutNode, managementPolicies, signalsUrl: answer.signalsUrl };
}
