import { endpoint } from '#functions/endpoint';
import { json } from '#lib/http/responses';
import { consoleRoutes } from './routes.ts';
import { authorizeNodeSummaries } from './shared/access.ts';
import { recentFleetSummary } from './shared/summaries.ts';

/**
 * GET /v1/console/orgs/{organization}/fleet: the org's nodes in numbers. One GetItem (the org),
 * ⌈N/1000⌉ Queries (gsi1), ⌈N/50⌉ BatchGetItem and one PutItem (the summary kept) for N nodes, at
 * most once per 30 s per org and owner; else from memory or one GetItem; tables/README.md, access
 * pattern 115.
 */
export const handler = endpoint(consoleRoutes.operations.getFleetSummary, {
  authorize: ({ caller, path }) => authorizeNodeSummaries(caller, path.organization),
  handle: async ({ path, query, target: ownOnly, deps }) =>
    json(
      200,
      await recentFleetSummary(
        path.organization,
        ownOnly,
        deps.clock.now().getTime(),
        query.maxAge === undefined ? undefined : query.maxAge * 1000,
      ),
    ),
});
