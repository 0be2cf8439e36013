import { endpoint } from '#functions/endpoint';
import { authorizeNode, nodeNotFound } from '#functions/nodes/access';
import { json } from '#lib/http/responses';
import { recentNodeChanges } from '#tables/feed/node-changes';
import { consoleRoutes } from './routes.ts';

/** Rows shown when the page asks for no `limit`: what fits the Node page at a glance. */
const DEFAULT_LIMIT = 20;

/**
 * GET /v1/console/orgs/{organization}/nodes/{node}/changes: the node's newest change rows. The
 * node read's own authorization (one GetItem, the node), then the numbering check (one Query when
 * nothing is pending) and one gsi1 Query with Limit; tables/README.md, access pattern 116.
 */
export const handler = endpoint(consoleRoutes.operations.listNodeChanges, {
  authorize: ({ caller, path }) => authorizeNode(caller, path, 'READ'),
  async handle({ path, query, target: node, deps }) {
    if (!node) throw nodeNotFound(path);
    const limit = query.limit ?? DEFAULT_LIMIT;
    const changes = await recentNodeChanges(path.organization, path.node, limit, deps.clock.now());
    return json(200, { node: `${path.organization}/${path.node}`, changes });
  },
});
