/**
 * How a party reads its Exchange mailbox (issue 23): in pages of at most `pageSize` messages
 * (`?maxmsgs=`), each page after the last id of the one before (`?after=`), every message of a page
 * handled (and deleted, or left on purpose) before the next page is read, at most `maxPages` pages
 * a read. The Exchange caps a page by count and bytes, so a crowded mailbox never makes one answer
 * too large, and messages a reader leaves for later do not hide the ones behind them. An Exchange
 * that ignores `after` (upstream) is handled too: ids already seen are skipped, and a page with
 * nothing new ends the read.
 */
export const MAILBOX_PAGE_SIZE = 50;
const MAILBOX_MAX_PAGES = 20;

export interface PageQuery {
  maxmsgs: number;
  after: number;
}

/** Reads and handles pages until the mailbox has nothing new; resolves how many messages were handled. */
export async function readMailboxPages<M extends { msgId: number }>(
  readPage: (query: PageQuery) => Promise<M[]>,
  handlePage: (messages: M[]) => Promise<void>,
  limits: { pageSize: number; maxPages: number } = {
    pageSize: MAILBOX_PAGE_SIZE,
    maxPages: MAILBOX_MAX_PAGES,
  },
): Promise<number> {
  let after = 0;
  let handled = 0;
  for (let page = 0; page < limits.maxPages; page++) {
    const fresh = (await readPage({ maxmsgs: limits.pageSize, after })).filter((m) => m.msgId > after);
    if (fresh.length === 0) break;
    await handlePage(fresh);
    handled += fresh.length;
    after = Math.max(...fresh.map((m) => m.msgId));
  }
  return handled;
}

/** `?maxmsgs=…&after=…` of a page read. */
export const pageQueryString = ({ maxmsgs, after }: PageQuery): string =>
  `maxmsgs=${maxmsgs}${after > 0 ? `&after=${after}` : ''}`;
