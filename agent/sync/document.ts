import type { Credentials } from '../exchange/client.ts';
import type { ExchangeNode } from '../exchange/types.ts';
import { isActive, loadNode, type NodeRecord } from '../node/record.ts';
import type { AgentContext } from '../runtime/context.ts';
import type { PushKind } from '../runtime/sync-kinds.ts';

/** One poll of the Exchange: the node as it was when the round began, and one shared read of the Exchange node. */
export interface PollRound {
  ctx: AgentContext;
  node: NodeRecord;
  creds: Credentials;
  /** The local revisions when the round began: a document written since is not overwritten. */
  revision: Record<PushKind, number>;
  exchangeNode(): Promise<ExchangeNode | undefined>;
}

/**
 * One synced document, as the workers see it: ExchangeChanges reads every document's Exchange
 * copy (`pull`) and brings it in (`apply`); the document's own worker pushes local writes the
 * Exchange has not taken yet (`pushPending`).
 */
export interface SyncedDocument<R = unknown> {
  kind: PushKind;
  /** Its worker's name in GET /status/workers. */
  worker: string;
  /** Change-feed resources (`POST /orgs/{org}/changes`) that name a change of it. */
  resources: readonly string[];
  pull(round: PollRound): Promise<R>;
  apply(round: PollRound, remote: R): void;
  pushPending(ctx: AgentContext): Promise<void>;
}

/** Still the same registration, nothing local pending or written since the round began. */
export function canApply(round: PollRound, kind: PushKind): NodeRecord | undefined {
  const { ctx } = round;
  const node = loadNode(ctx.store);
  const ok =
    isActive(node) &&
    node.id === round.node.id &&
    !ctx.store.isPending(kind) &&
    ctx.runtime.revision[kind] === round.revision[kind];
  return ok ? node : undefined;
}
