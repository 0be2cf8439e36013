import { endpoint } from '#functions/endpoint';
import { notFound } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import { getNodeErrors } from '#tables/node/report-records';
import { authorizeNode } from './access.ts';
import { nodesRoutes } from './routes.ts';
import { nodeErrorsView } from './status-view.ts';

/** GET /v1/orgs/{organization}/nodes/{node}/errors: whoever may read the node; none → 404. */
export const handler = endpoint(nodesRoutes.operations.getNodeErrors, {
  authorize: ({ caller, path }) => authorizeNode(caller, path, 'READ'),
  async handle({ path, target }) {
    const errors = target && (await getNodeErrors(path.organization, path.node));
    if (!errors) throw notFound('not found');
    return json(200, nodeErrorsView(errors));
  },
});
