import { endpoint } from '#functions/endpoint';
import { authorizeNode, isTheNode, resourceId } from '#functions/nodes/access';
import { notFound } from '#lib/http/errors';
import { noContent } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { deleteNodeAgreement } from '#tables/node/agreement-records';
import { laterTimestamp } from '#tables/node/records';
import { nodeAgreementsRoutes } from './routes.ts';

/** DELETE /v1/orgs/{organization}/nodes/{node}/agreements/{agid}: whoever may write the node; stamps its lastUpdated; 204. */
export const handler = endpoint(nodeAgreementsRoutes.operations.deleteNodeAgreement, {
  authorize: ({ caller, path }) => authorizeNode(caller, path, 'WRITE'),
  async handle({ caller, path, target, deps }) {
    const lastUpdated = target && laterTimestamp(target.lastUpdated, isoTimestamp(deps.clock));
    const node = target && {
      org: target.org,
      id: target.id,
      owner: target.owner,
      byItsNode: isTheNode(caller, path),
    };
    if (!node || !(await deleteNodeAgreement(node, path.agid, { lastUpdated }))) {
      throw notFound(`agreement '${path.agid}' for node '${resourceId(path)}' not found`);
    }
    return noContent();
  },
});
