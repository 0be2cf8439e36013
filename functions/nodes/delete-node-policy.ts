import { endpoint } from '#functions/endpoint';
import { notFound } from '#lib/http/errors';
import { noContent } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { deleteNodePolicy } from '#tables/node/policy-records';
import { laterTimestamp } from '#tables/node/records';
import { authorizeNode, resourceId } from './access.ts';
import { nodesRoutes } from './routes.ts';

/** DELETE /v1/orgs/{organization}/nodes/{node}/policy: whoever may write the node; stamps its lastUpdated. */
export const handler = endpoint(nodesRoutes.operations.deleteNodePolicy, {
  authorize: ({ caller, path }) => authorizeNode(caller, path, 'WRITE'),
  async handle({ path, target, deps }) {
    const notThere = notFound(`policy for node '${resourceId(path)}' not found`);
    if (!target) throw notThere;
    const lastUpdated = laterTimestamp(target.lastUpdated, isoTimestamp(deps.clock));
    if (!(await deleteNodePolicy(path.organization, path.node, { lastUpdated }))) throw notThere;
    return noContent();
  },
});
