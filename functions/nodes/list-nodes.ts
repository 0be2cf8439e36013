import { endpoint } from '#functions/endpoint';
import { authorize } from '#lib/auth/access';
import { roleOf } from '#lib/auth/caller';
import { emptyList } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import { nodeListFilter } from './list-filters.ts';
import { readNodeList } from './list-pages.ts';
import { nodesRoutes } from './routes.ts';

/**
 * GET /v1/orgs/{organization}/nodes: users (their own nodes), org admins, root, agbots of the org
 * and multi-tenant agbots; nodes and hub admins get 403. Queries of the org's gsi1 partition in id
 * order: one page with `limit` (our extension), else the whole list as far as one answer holds,
 * with `next` where the rest starts (functions/nodes/list-pages.ts).
 */
export const handler = endpoint(nodesRoutes.operations.listNodes, {
  authorize: ({ caller, path }) =>
    authorize(caller, { type: 'node', org: path.organization, id: '#', exists: true }, 'READ'),
  async handle({ caller, path, query }) {
    const ownOnly = roleOf(caller) === 'User' ? caller.fullId : undefined;
    const keep = nodeListFilter(query, caller);
    const { views, next } = await readNodeList(path.organization, query, ownOnly, keep);
    const body = { nodes: Object.fromEntries(views), lastIndex: 0, ...(next !== undefined ? { next } : {}) };
    // Nothing matches: upstream's 404. A page after the first (`after`) or with more to come is a 200.
    if (views.length === 0 && next === undefined && query.after === undefined) throw emptyList(body);
    return json(200, body);
  },
});
