import { agbotWokenBy, type FeedRow, nodeWokenBy, visibleTo } from '#lib/feed/visibility';
import { LOOK_NOW, MAIL_NOW } from '#lib/signals/address';
import { type LookNowOutcome, managementUrl, sendSignals } from '#lib/signals/look-now';
import { agbotConnections, forgetConnection, nodeListeners } from './connections.ts';

/** One signal to one connection: LOOK_NOW, or MAIL_NOW (lib/signals/address.ts). */
export interface Signal {
  connectionId: string;
  message: string;
}

/** The one resource a "mail now" may stand for: a node's own mailbox. */
const MAILBOX = 'nodemsgs';

/**
 * The connections `changes` wake (docs/signals.md), each with what it is told: those of the nodes
 * the rows are about and of the agbots that read them (rules in lib/feed/visibility.ts, the same
 * file that decides what each reader's feed shows). A node woken only by rows about its mailbox is
 * told "mail now" when its connection asked for it, so it reads its mailbox without a feed read.
 * One Query per node woken and one for the agbots, when an agbot may read a row; each connection
 * once, however many rows wake it.
 */
export async function audienceOf(changes: FeedRow[]): Promise<Signal[]> {
  const wakes = new Map<string, Set<string>>();
  for (const row of changes) {
    const node = nodeWokenBy(row);
    if (node === undefined) continue;
    const resources = wakes.get(node) ?? new Set<string>();
    wakes.set(node, resources.add(row.resource));
  }
  // Rows no agbot reads (a node's mailbox, its status) cost no agbot lookup.
  const agbotRows = changes.filter(visibleTo({ kind: 'agbot', org: '', id: '' }));
  const [nodeSignals, agbots] = await Promise.all([
    Promise.all(
      [...wakes].map(async ([node, resources]) => {
        const slash = node.indexOf('/');
        const onlyMail = resources.size === 1 && resources.has(MAILBOX);
        const listeners = await nodeListeners(node.slice(0, slash), node.slice(slash + 1));
        return listeners.map((l) => ({
          connectionId: l.connectionId,
          message: onlyMail && l.hearsMail ? MAIL_NOW : LOOK_NOW,
        }));
      }),
    ),
    agbotRows.length > 0 ? agbotConnections() : [],
  ]);
  const agbotSignals = agbots
    .filter((agbot) => agbotRows.some((row) => agbotWokenBy(agbot, row)))
    .map((a) => ({ connectionId: a.connectionId, message: LOOK_NOW }));
  const byConnection = new Map<string, Signal>();
  for (const signal of [...nodeSignals.flat(), ...agbotSignals])
    byConnection.set(signal.connectionId, signal);
  return [...byConnection.values()];
}

/** Connections that could be neither signalled nor closed: the stream retries the whole batch. */
export class SignalsNotDelivered extends Error {
  constructor(readonly failed: LookNowOutcome['failed']) {
    super(
      `"look now" neither delivered nor the connection closed: ${failed.map((f) => `${f.connectionId} (${f.error})`).join(', ')}`,
    );
    this.name = 'SignalsNotDelivered';
  }
}

/**
 * How old a connection must be before a 410 makes us forget it. API Gateway (and serverless-offline)
 * register a connection only once `$connect` has answered, and `$connect` records it before that:
 * a post in between is answered 410 although the connection is about to open. Its client polls on
 * the open, so the signal is not missed; forgetting it would leave it open and never signalled.
 * `$connect` may take up to API Gateway's 29 s integration timeout.
 */
export const GONE_GRACE_MS = 60_000;

export interface SignalOutcome extends LookNowOutcome {
  /** Connections the changes woke. */
  audience: number;
}

/**
 * Tells the listeners whose feed now shows something to poll (functions/signals/dispatch.ts calls
 * it with the change rows of the table's stream). Each post is retried; a connection that cannot
 * be posted to is closed (its client reconnects and polls at once) and forgotten, as is one API
 * Gateway says is gone (unless it opened in the last GONE_GRACE_MS). Throws SignalsNotDelivered when a connection could be neither signalled
 * nor closed, and any DynamoDB error: the event source mapping then invokes again with the same
 * rows (a listener that hears twice polls twice, which is harmless).
 */
export async function signalChanges(changes: FeedRow[]): Promise<SignalOutcome> {
  const none: SignalOutcome = { audience: 0, delivered: [], gone: [], closed: [], failed: [], retries: 0 };
  if (!managementUrl() || changes.length === 0) return none;
  const audience = await audienceOf(changes);
  const outcome = await sendSignals(audience);
  const openedBefore = new Date(Date.now() - GONE_GRACE_MS);
  await Promise.all([
    ...outcome.closed.map((connectionId) => forgetConnection(connectionId)),
    ...outcome.gone.map((connectionId) => forgetConnection(connectionId, { openedBefore })),
  ]);
  if (outcome.failed.length > 0) throw new SignalsNotDelivered(outcome.failed);
  return { ...outcome, audience: audience.length };
}
