import { endpoint } from '#functions/endpoint';
import { authorizeNode } from '#functions/nodes/access';
import { listNodeAgreements } from '#tables/node/agreement-records';
import { nodeAgreementsRoutes } from './routes.ts';
import { agreementsResponse } from './shared/agreement-view.ts';

/**
 * GET /v1/orgs/{organization}/nodes/{node}/agreements: whoever may read the node (the node, its
 * owner, org admins, root, agbots). One Query of the node's partition; none → 404 with the empty map.
 */
export const handler = endpoint(nodeAgreementsRoutes.operations.listNodeAgreements, {
  authorize: ({ caller, path }) => authorizeNode(caller, path, 'READ'),
  async handle({ path, target }) {
    return agreementsResponse(target ? await listNodeAgreements(path.organization, path.node) : []);
  },
});
