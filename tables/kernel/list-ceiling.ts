import { type QueryInput, queryAll } from './query-all.ts';

/**
 * The ceiling of every list a request reads (issue 23: no request may make the Exchange read
 * without bound). A list answers at most LIST_MAX_RECORDS records, read in at most LIST_MAX_PAGES
 * Queries (DynamoDB pages of up to 1 MB); past either, the rest is left out, and the records kept
 * are the first in the list's key order. Cascades and maintenance that must see every record
 * (`'all'`) read every page.
 */
export const LIST_MAX_RECORDS = 10_000;
export const LIST_MAX_PAGES = 10;

/** `'capped'`: a list answered to a client; `'all'`: a delete or a check that must see everything. */
export type ListReach = 'capped' | 'all';

/** dynamodb-toolbox's `maxPages` for a list of this reach. */
export const maxPagesFor = (reach: ListReach): number =>
  reach === 'all' ? Number.POSITIVE_INFINITY : LIST_MAX_PAGES;

/** The records a list of this reach keeps. */
export const withinCeiling = <T>(records: T[], reach: ListReach): T[] =>
  reach === 'all' ? records : records.slice(0, LIST_MAX_RECORDS);

/** The items of a Query, page after page, within the ceiling of `reach`. */
export async function queryPages(input: QueryInput, reach: ListReach): Promise<Record<string, unknown>[]> {
  return withinCeiling(await queryAll(input, { maxPages: maxPagesFor(reach) }), reach);
}
