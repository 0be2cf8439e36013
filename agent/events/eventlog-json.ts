import { Readable } from 'node:stream';
import type { EventFilter, Store } from '../store/store.ts';

/**
 * The body of GET /eventlog: a JSON array of the events after `afterId` passing `filters`.
 * A result that fits in one page is one string (sent with a content length, as before); a longer
 * one is streamed page by page, pulled only as fast as the client reads, so the agent never holds
 * the whole log. The first page is read before answering: a failing query is still a clean error.
 */
export function eventLogJson(
  store: Store,
  afterId: number,
  filters: EventFilter[],
  pageSize?: number,
): string | Readable {
  const pages = store.eventPages(afterId, filters, pageSize);
  const first = pages.next();
  if (first.done) return '[]';
  const second = pages.next();
  if (second.done) return `[${first.value}]`;
  function* chunks(): Generator<string> {
    yield `[${first.value}`;
    yield `,${second.value}`;
    for (const page of pages) yield `,${page}`;
    yield ']';
  }
  return Readable.from(chunks(), { objectMode: false, highWaterMark: 64 * 1024 });
}
