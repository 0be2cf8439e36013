import { endpoint } from '#functions/endpoint';
import { authorizeNode } from '#functions/nodes/access';
import { getNodeAgreement } from '#tables/node/agreement-records';
import { agreementsResponse } from './shared/agreement-view.ts';
import { agreementPath } from './shared/schemas.ts';

/** GET /v1/orgs/{organization}/nodes/{node}/agreements/{agid}: as the list; absent → 404 empty map. */
export const handler = endpoint({
  path: agreementPath,
  authorize: ({ caller, path }) => authorizeNode(caller, path, 'READ'),
  async handle({ path, target }) {
    const agreement = target && (await getNodeAgreement(path.organization, path.node, path.agid));
    return agreementsResponse(agreement ? [agreement] : []);
  },
});
