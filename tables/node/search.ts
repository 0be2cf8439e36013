import { tableName } from '../client.ts';
import { pagesOfQuery } from '../kernel/query-all.ts';
import { nodeKeys } from '../keys/node.ts';
import type { AgreementSummary } from './agreement-records.ts';
import { withHeartbeats } from './liveness.ts';

/**
 * The agbots' node searches (docs/exchange-catalog.md#pattern-search, #pattern-node-health, #policy-search) read gsi2: every node is indexed
 * under `SEARCH#<org>#<pattern>` ("" for policy nodes), sorted by `<lastUpdated>#<id>`, with the
 * few attributes a search needs projected (table-definition.json), including the node's agreement
 * summary (`agreementServices`, kept by tables/node/agreement-records.ts). A search is one Query
 * per 1 MB page of that partition (plus one BatchGetItem per 100 nodes for their heartbeats,
 * tables/node/liveness.ts): no Scan.
 */
export interface SearchNode {
  org: string;
  id: string;
  publicKey: string;
  nodeType: string;
  arch: string;
  pattern: string;
  lastHeartbeat?: string;
  lastUpdated: string;
  agreementServices: Record<string, AgreementSummary>;
}

interface SearchPage {
  /** The nodes that passed `keep`, in sort-key order. */
  nodes: SearchNode[];
  /** DynamoDB calls made and items read (for the benchmark). */
  calls: number;
  itemsRead: number;
}

const toNode = (item: Record<string, unknown>): SearchNode => ({
  org: String(item.org ?? ''),
  id: String(item.id ?? ''),
  publicKey: String(item.publicKey ?? ''),
  nodeType: String(item.nodeType ?? ''),
  arch: String(item.arch ?? ''),
  pattern: String(item.pattern ?? ''),
  ...(typeof item.lastHeartbeat === 'string' ? { lastHeartbeat: item.lastHeartbeat } : {}),
  lastUpdated: String(item.lastUpdated ?? ''),
  agreementServices: (item.agreementServices ?? {}) as Record<string, AgreementSummary>,
});

/**
 * The nodes of `org` that name `pattern`, from sort key `from` on (inclusive: upstream's offsets
 * are `lastUpdated >=`), that pass `keep`; stops once `want` have passed (all when undefined).
 */
export async function searchNodes(
  org: string,
  pattern: string,
  options: { from?: string; want?: number; keep: (node: SearchNode) => boolean },
): Promise<SearchPage> {
  const page: SearchPage = { nodes: [], calls: 0, itemsRead: 0 };
  const pages = pagesOfQuery({
    TableName: tableName(),
    IndexName: 'gsi2',
    KeyConditionExpression: options.from ? 'gsi2pk = :pk AND gsi2sk >= :from' : 'gsi2pk = :pk',
    ExpressionAttributeValues: {
      ':pk': nodeKeys.searchIndex(org, pattern),
      ...(options.from ? { ':from': options.from } : {}),
    },
    // Enough for a page when most nodes qualify; more pages when they do not.
    Limit: options.want ? Math.min(1000, options.want + 50) : undefined,
  });
  for await (const items of pages) {
    page.calls++;
    page.itemsRead += items.length;
    // The index holds the node item's lastHeartbeat; heartbeats live in their own items.
    for (const node of await withHeartbeats(items.map(toNode))) {
      if (!options.keep(node)) continue;
      page.nodes.push(node);
      if (options.want !== undefined && page.nodes.length >= options.want) return page;
    }
  }
  return page;
}
