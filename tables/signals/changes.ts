import { agbotWokenBy, type FeedRow, nodeWokenBy, visibleTo } from '#lib/feed/visibility';
import { log } from '#lib/log';
import { signalsUrl } from '#lib/signals/address';
import { sendLookNow } from '#lib/signals/look-now';
import { agbotConnections, nodeConnections, removeConnection } from './connections.ts';

/**
 * After a write recorded `changes`, tells the listeners whose feed now shows something to poll
 * (docs/signals.md): the nodes the rows are about and the agbots that read them. One Query per
 * node woken and one for the agbots, only when the Exchange has a signal channel. Best effort: a
 * write never fails because of a signal, and a listener that misses one finds the row at its next
 * poll.
 */
export async function signalChanges(changes: FeedRow[]): Promise<void> {
  if (!signalsUrl() || changes.length === 0) return;
  try {
    const nodes = new Set(changes.map(nodeWokenBy).filter((node) => node !== undefined));
    // Rows no agbot reads (a node's mailbox, its status) cost no agbot lookup.
    const agbotRows = changes.filter(visibleTo({ kind: 'agbot', org: '', id: '' }));
    const [nodeIds, agbots] = await Promise.all([
      Promise.all(
        [...nodes].map((node) => {
          const slash = node.indexOf('/');
          return nodeConnections(node.slice(0, slash), node.slice(slash + 1));
        }),
      ),
      agbotRows.length > 0 ? agbotConnections() : [],
    ]);
    const connectionIds = [
      ...nodeIds.flat(),
      ...agbots
        .filter((agbot) => agbotRows.some((row) => agbotWokenBy(agbot, row)))
        .map((a) => a.connectionId),
    ];
    const gone = await sendLookNow(connectionIds);
    await Promise.all(gone.map((connectionId) => removeConnection(connectionId)));
  } catch (error) {
    log.warn('signal not sent', { error: (error as Error).message });
  }
}
