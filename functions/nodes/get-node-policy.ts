import { endpoint } from '#functions/endpoint';
import { notFound } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import { getNodeAndPolicy } from '#tables/node/records';
import { checkNodeAccess } from './access.ts';
import { nodePolicyView } from './policy-view.ts';
import { nodesRoutes } from './routes.ts';

/**
 * GET /v1/orgs/{organization}/nodes/{node}/policy: whoever may read the node. The node (to
 * authorize) and its policy come from one Query: an agbot reads this for every proposal.
 */
export const handler = endpoint(nodesRoutes.operations.getNodePolicy, {
  authorize: async ({ caller, path }) => {
    const { node, policy } = await getNodeAndPolicy(path.organization, path.node);
    checkNodeAccess(caller, path, node, 'READ');
    return policy;
  },
  async handle({ target: policy }) {
    if (!policy) throw notFound('not found');
    return json(200, nodePolicyView(policy));
  },
});
