import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './client.ts';
import { indexKeys } from './keys.ts';
import type { AgreementSummary } from './node-agreement-records.ts';
import { withHeartbeats } from './node-liveness.ts';

/**
 * The agbots' node searches (catalog reference §3.7, §3.8, §4.3) read gsi2: every node is indexed
 * under `SEARCH#<org>#<pattern>` ("" for policy nodes), sorted by `<lastUpdated>#<id>`, with the
 * few attributes a search needs projected (table-definition.json), including the node's agreement
 * summary (`agreementServices`, kept by tables/node-agreement-records.ts). A search is one Query
 * per 1 MB page of that partition (plus one BatchGetItem per 100 nodes for their heartbeats,
 * tables/node-liveness.ts): no Scan.
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

export interface SearchPage {
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
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await documentClient.send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi2',
        KeyConditionExpression: options.from ? 'gsi2pk = :pk AND gsi2sk >= :from' : 'gsi2pk = :pk',
        ExpressionAttributeValues: {
          ':pk': indexKeys.nodeSearch(org, pattern),
          ...(options.from ? { ':from': options.from } : {}),
        },
        ExclusiveStartKey: startKey,
        // Enough for a page when most nodes qualify; more pages when they do not.
        Limit: options.want ? Math.min(1000, options.want + 50) : undefined,
      }),
    );
    page.calls++;
    page.itemsRead += result.Items?.length ?? 0;
    // The index holds the node item's lastHeartbeat; heartbeats live in their own items.
    for (const node of await withHeartbeats((result.Items ?? []).map(toNode))) {
      if (!options.keep(node)) continue;
      page.nodes.push(node);
      if (options.want !== undefined && page.nodes.length >= options.want) return page;
    }
    startKey = result.LastEvaluatedKey;
  } while (startKey);
  return page;
}
