import { log } from '#lib/log';
import { sequencePendingChanges } from '#tables/feed/changes';
import { countFromStream } from '#tables/org/stream-counts';
import { signalChanges } from '#tables/signals/changes';
import { changesInStream, type StreamRecord } from '#tables/signals/stream';

/**
 * The signal dispatcher (docs/signals.md), on the table's stream: the new change rows of a batch
 * (lib/signals/stream-filter.ts) are numbered, then wake their audience's connections with "look
 * now", off every request's path. Each post is retried; a connection that cannot be reached is
 * closed, so its client reconnects and polls. When a connection can be neither signalled nor
 * closed, or the table fails, the handler throws and the event source mapping invokes it again
 * with the same rows (a few times, bisecting the batch, for at most two minutes:
 * functions/signals/function.ts).
 *
 * The same batches carry the messages and agreements created and removed: after the signals, the
 * handler moves their orgs' counters (tables/org/stream-counts.ts), last, so that a batch retried
 * for its signals is counted once.
 */
export async function handler(event: { Records?: StreamRecord[] }) {
  const records = event.Records ?? [];
  const changes = changesInStream(records);
  try {
    // The batch's change rows are numbered before anyone is woken for them: a node's feed read
    // does not wait for another reader's numbering (functions/changes/post-changes.ts).
    if (changes.length > 0) await sequencePendingChanges();
    const outcome = await signalChanges(changes);
    if (outcome.retries > 0 || outcome.closed.length > 0 || outcome.gone.length > 0)
      log.warn('signals needed retries, or met closed connections', {
        changes: changes.length,
        audience: outcome.audience,
        retries: outcome.retries,
        closed: outcome.closed,
        gone: outcome.gone,
      });
    await countFromStream(records);
    return { changes: changes.length, audience: outcome.audience, delivered: outcome.delivered.length };
  } catch (error) {
    log.error('signals not delivered or counters not moved; the stream retries the batch', {
      changes: changes.length,
      error: (error as Error).message,
    });
    throw error;
  }
}
