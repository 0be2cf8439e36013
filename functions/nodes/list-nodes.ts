import { endpoint } from '#functions/endpoint';
import { authorize } from '#lib/auth/access';
import { roleOf } from '#lib/auth/caller';
import { emptyList } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import { listOrgNodes } from '#tables/node/records';
import { nodeListFilter } from './list-filters.ts';
import { nodeView } from './node-view.ts';
import { nodesRoutes } from './routes.ts';

/**
 * GET /v1/orgs/{organization}/nodes: users (their own nodes), org admins, root, agbots of the org
 * and multi-tenant agbots; nodes and hub admins get 403. One Query of the org's gsi1 partition.
 */
export const handler = endpoint(nodesRoutes.operations.listNodes, {
  authorize: ({ caller, path }) =>
    authorize(caller, { type: 'node', org: path.organization, id: '#', exists: true }, 'READ'),
  async handle({ caller, path, query }) {
    const ownOnly = roleOf(caller) === 'User' ? caller.fullId : undefined;
    const keep = nodeListFilter(query, caller);
    const nodes = (await listOrgNodes(path.organization, ownOnly)).filter(keep);
    const body = {
      nodes: Object.fromEntries(nodes.map((node) => [`${node.org}/${node.id}`, nodeView(node)])),
      lastIndex: 0,
    };
    if (nodes.length === 0) throw emptyList(body);
    return json(200, body);
  },
});
