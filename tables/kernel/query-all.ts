import {
  QueryCommand,
  type QueryCommandInput,
  ScanCommand,
  type ScanCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../client.ts';

type Item = Record<string, unknown>;
type Page = { Items?: Item[]; LastEvaluatedKey?: Item };
export type QueryInput = Omit<QueryCommandInput, 'ExclusiveStartKey'>;
type ScanInput = Omit<ScanCommandInput, 'ExclusiveStartKey'>;

/** The items of each page of a paginated read, each page read from where the one before ended. */
async function* pagesOf(read: (startKey: Item | undefined) => Promise<Page>, maxPages: number) {
  let startKey: Item | undefined;
  for (let page = 0; page < maxPages; page++) {
    const answer = await read(startKey);
    yield answer.Items ?? [];
    startKey = answer.LastEvaluatedKey;
    if (!startKey) return;
  }
}

/**
 * The pages of a Query, one at a time, for a caller that works page by page or stops early
 * (leaving the loop reads no further page). At most `maxPages` pages; every page by default.
 */
export const pagesOfQuery = (
  input: QueryInput,
  maxPages = Number.POSITIVE_INFINITY,
): AsyncGenerator<Item[]> =>
  pagesOf(
    (startKey) => documentClient.send(new QueryCommand({ ...input, ExclusiveStartKey: startKey })),
    maxPages,
  );

/** The pages of a Scan (or of one segment of it), one at a time. */
export const pagesOfScan = (input: ScanInput): AsyncGenerator<Item[]> =>
  pagesOf(
    (startKey) => documentClient.send(new ScanCommand({ ...input, ExclusiveStartKey: startKey })),
    Number.POSITIVE_INFINITY,
  );

/** Every item of a Query, page after page (at most `maxPages` pages when given: a read budget). */
export async function queryAll(input: QueryInput, options: { maxPages?: number } = {}): Promise<Item[]> {
  const items: Item[] = [];
  for await (const page of pagesOfQuery(input, options.maxPages)) items.push(...page);
  return items;
}
