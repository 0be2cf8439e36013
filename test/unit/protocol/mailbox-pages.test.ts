import { describe, expect, it } from 'vitest';
import { type PageQuery, pageQueryString, readMailboxPages } from '#lib/protocol/mailbox-pages';

const ids = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => ({ msgId: from + i }));

describe('readMailboxPages', () => {
  it('reads after the last id of each page until a page is empty, handling each page before the next', async () => {
    const mailbox = ids(1, 7);
    const queries: PageQuery[] = [];
    const handled: number[][] = [];
    const count = await readMailboxPages(
      async (query) => {
        queries.push(query);
        return mailbox.filter((m) => m.msgId > query.after).slice(0, query.maxmsgs);
      },
      async (page) => {
        handled.push(page.map((m) => m.msgId));
      },
      { pageSize: 3, maxPages: 10 },
    );
    expect(count).toBe(7);
    expect(handled).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
    expect(queries.map((q) => q.after)).toEqual([0, 3, 6, 7]);
  });

  it('ends when an Exchange that ignores `after` answers nothing new (messages left in place)', async () => {
    let reads = 0;
    const count = await readMailboxPages(
      async () => {
        reads += 1;
        return ids(1, 3);
      },
      async () => {},
      { pageSize: 3, maxPages: 10 },
    );
    expect(count).toBe(3);
    expect(reads).toBe(2);
  });

  it('reads at most maxPages pages a call', async () => {
    let reads = 0;
    await readMailboxPages(
      async (query) => {
        reads += 1;
        return ids(query.after + 1, query.after + query.maxmsgs);
      },
      async () => {},
      { pageSize: 5, maxPages: 4 },
    );
    expect(reads).toBe(4);
  });

  it('writes the query: maxmsgs always, after only past the first page', () => {
    expect(pageQueryString({ maxmsgs: 50, after: 0 })).toBe('maxmsgs=50');
    expect(pageQueryString({ maxmsgs: 50, after: 12 })).toBe('maxmsgs=50&after=12');
  });
});
