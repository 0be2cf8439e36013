import { LIST_MAX_RECORDS } from '#tables/kernel/list-ceiling';
import { pageOrgNodeRecords } from '#tables/node/list-page';
import type { NodeRecord } from '#tables/node/records';
import { nodeView } from './node-view.ts';

/** What a Lambda may answer is 6 MB; a list stops before this much of nodes (docs/exchange.md#node-list). */
export const NODE_LIST_MAX_BYTES = 5_000_000;
/** Records read per Query when a client asked for the whole list. */
const WHOLE_LIST_QUERY = 1_000;

export interface NodeListAnswer {
  views: [string, ReturnType<typeof nodeView>][];
  /** Pass as `after` for the rest; undefined when the list is whole. */
  next: string | undefined;
}

/**
 * The org's nodes that `keep` passes, in id order. With `limit`, one page: `limit` records read
 * after `after` (fewer may pass the filters), `next` set when more follow. Without, the whole list
 * up to `maxBytes` (NODE_LIST_MAX_BYTES) of nodes and LIST_MAX_RECORDS nodes; past either, `next` says where
 * the rest starts, so that a large org answers what fits instead of failing at Lambda's limit.
 */
export async function readNodeList(
  org: string,
  query: { limit?: number | undefined; after?: string | undefined },
  owner: string | undefined,
  keep: (node: NodeRecord) => boolean,
  maxBytes = NODE_LIST_MAX_BYTES,
): Promise<NodeListAnswer> {
  if (query.limit !== undefined) {
    const page = await pageOrgNodeRecords(org, { limit: query.limit, after: query.after, owner });
    return { views: page.nodes.filter(keep).map(viewEntry), next: page.next };
  }
  const views: NodeListAnswer['views'] = [];
  let bytes = 0;
  let after = query.after;
  do {
    const page = await pageOrgNodeRecords(org, { limit: WHOLE_LIST_QUERY, after, owner });
    for (const node of page.nodes) {
      if (!keep(node)) continue;
      const entry = viewEntry(node);
      const size = JSON.stringify(entry).length;
      // The rest starts after the last node answered (those filtered out since are read again).
      if (bytes + size > maxBytes || views.length >= LIST_MAX_RECORDS) return { views, next: after };
      views.push(entry);
      bytes += size;
      after = node.id;
    }
    after = page.next;
  } while (after !== undefined);
  return { views, next: undefined };
}

const viewEntry = (node: NodeRecord): [string, ReturnType<typeof nodeView>] => [
  `${node.org}/${node.id}`,
  nodeView(node),
];
