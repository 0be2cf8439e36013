import { endpoint } from '#functions/endpoint';
import { notFound } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import { getNodePolicy } from '#tables/node/policy-records';
import { authorizeNode } from './access.ts';
import { nodePolicyView } from './policy-view.ts';
import { nodesRoutes } from './routes.ts';

/** GET /v1/orgs/{organization}/nodes/{node}/policy: whoever may read the node. */
export const handler = endpoint(nodesRoutes.operations.getNodePolicy, {
  authorize: ({ caller, path }) => authorizeNode(caller, path, 'READ'),
  async handle({ path }) {
    const policy = await getNodePolicy(path.organization, path.node);
    if (!policy) throw notFound('not found');
    return json(200, nodePolicyView(policy));
  },
});
