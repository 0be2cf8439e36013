import { endpoint } from '#functions/endpoint';
import { json } from '#lib/http/responses';
import { consoleRoutes } from './routes.ts';
import { authorizeNodeSummaries } from './shared/access.ts';
import { summaryPage } from './shared/summaries.ts';

/**
 * GET /v1/console/orgs/{organization}/nodes: one page of node summaries. One GetItem (the org's
 * heartbeat intervals), then per `limit` records one Query (gsi1) and ⌈2·limit/100⌉ BatchGetItem
 * (liveness and errors items); tables/README.md, access pattern 114.
 */
export const handler = endpoint(consoleRoutes.operations.listNodeSummaries, {
  authorize: ({ caller, path }) => authorizeNodeSummaries(caller, path.organization),
  async handle({ path, query, target: ownOnly, deps }) {
    const now = deps.clock.now().getTime();
    const page = await summaryPage(path.organization, query, ownOnly, now);
    return json(200, {
      nodes: page.nodes,
      ...(page.next === undefined ? {} : { next: page.next }),
      scanned: page.scanned,
      at: new Date(now).toISOString(),
    });
  },
});
