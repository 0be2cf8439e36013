import { endpoint } from '#functions/endpoint';
import { notFound } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import { authorizeNode, resourceId } from './access.ts';
import { nodeAttribute, nodeView } from './node-view.ts';
import { nodesRoutes } from './routes.ts';

/**
 * GET /v1/orgs/{organization}/nodes/{node}[?attribute=]: owner, org admins, root, the node itself,
 * agbots of the org and multi-tenant agbots. The node read by `authorize` is the one returned.
 */
export const handler = endpoint(nodesRoutes.operations.getNode, {
  authorize: ({ caller, path }) => authorizeNode(caller, path, 'READ'),
  handle({ path, query, target: node }) {
    if (!node) throw notFound('not found');
    const value = query.attribute ? nodeAttribute(node, query.attribute) : undefined;
    if (value !== undefined) return json(200, { attribute: query.attribute, value });
    return json(200, { nodes: { [resourceId(path)]: nodeView(node) }, lastIndex: 0 });
  },
});
