import { authorizeStatusReader, visibleNodeOrgs } from '#functions/agbot-status/shared/access';
import { endpoint } from '#functions/endpoint';
import { json } from '#lib/http/responses';
import { consoleRoutes } from './routes.ts';
import { deploymentsPage } from './shared/deployments.ts';

/** Rows a page holds when the page asks for no `limit`. */
const DEFAULT_LIMIT = 50;

/**
 * GET /v1/console/orgs/{organization}/deployments: the Deployments page in one request, paged.
 * Read as the agbot status is (users of the org, hub admins, root); tables/README.md, pattern 117.
 */
export const handler = endpoint(consoleRoutes.operations.listDeployments, {
  authorize: ({ caller, path }) => authorizeStatusReader(caller, path.organization),
  async handle({ caller, path, query, deps }) {
    const limit = query.limit ?? DEFAULT_LIMIT;
    const page = await deploymentsPage(path.organization, query.after, limit, visibleNodeOrgs(caller));
    return json(200, {
      org: path.organization,
      deployments: page.rows,
      ...(page.next === undefined ? {} : { next: page.next }),
      at: deps.clock.now().toISOString(),
    });
  },
});
