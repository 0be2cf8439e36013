import { endpoint } from '#functions/endpoint';
import { authorizeNode, isTheNode, resourceId } from '#functions/nodes/access';
import { notFound } from '#lib/http/errors';
import { noContent } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { deleteAllNodeAgreements } from '#tables/node/agreement-records';
import { laterTimestamp } from '#tables/node/records';
import { nodeAgreementsRoutes } from './routes.ts';

/** DELETE /v1/orgs/{organization}/nodes/{node}/agreements: every agreement of the node; 204, none → 404. */
export const handler = endpoint(nodeAgreementsRoutes.operations.deleteNodeAgreements, {
  authorize: ({ caller, path }) => authorizeNode(caller, path, 'WRITE'),
  async handle({ caller, path, target, deps }) {
    const lastUpdated = target && laterTimestamp(target.lastUpdated, isoTimestamp(deps.clock));
    const node = target && {
      org: target.org,
      id: target.id,
      owner: target.owner,
      byItsNode: isTheNode(caller, path),
    };
    const deleted = node ? await deleteAllNodeAgreements(node, { lastUpdated }) : 0;
    if (deleted === 0) throw notFound(`no agreements for node '${resourceId(path)}' found`);
    return noContent();
  },
});
