import { endpoint } from '#functions/endpoint';
import { authorizeNode } from '#functions/nodes/access';
import { getNodeAgreement } from '#tables/node/agreement-records';
import { nodeAgreementsRoutes } from './routes.ts';
import { agreementsResponse } from './shared/agreement-view.ts';

/** GET /v1/orgs/{organization}/nodes/{node}/agreements/{agid}: as the list; absent → 404 empty map. */
export const handler = endpoint(nodeAgreementsRoutes.operations.getNodeAgreement, {
  authorize: ({ caller, path }) => authorizeNode(caller, path, 'READ'),
  async handle({ path, target }) {
    const agreement = target && (await getNodeAgreement(path.organization, path.node, path.agid));
    return agreementsResponse(agreement ? [agreement] : []);
  },
});
