import { endpoint } from '#functions/endpoint';
import { authorizeNode, isTheNode, nodeNotFound } from '#functions/nodes/access';
import { accessDenied, badInput } from '#lib/http/errors';
import { ok } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { putNodeAgreement } from '#tables/node/agreement-records';
import { laterTimestamp } from '#tables/node/records';
import { nodeAgreementsRoutes } from './routes.ts';

const NO_SERVICE = { orgid: '', pattern: '', url: '' };

/**
 * PUT /v1/orgs/{organization}/nodes/{node}/agreements/{agid}[?noheartbeat=]: whoever may write the
 * node (the node, its owner, org admins, root; not agbots). Adds (within `maxAgreements` per node)
 * or updates, stamps the node's lastUpdated (and lastHeartbeat unless `noheartbeat`); 201. The
 * node record read to authorize says whether the agreement is new (its `agreementServices`), so a
 * first PUT is one transaction, not a failed update and then the create.
 */
export const handler = endpoint(nodeAgreementsRoutes.operations.putNodeAgreement, {
  authorize: ({ caller, path }) => authorizeNode(caller, path, 'WRITE'),
  async handle({ caller, path, query, body, target, deps }) {
    if (!body.services && !body.agreementService) {
      throw badInput("you must specify at least 1 of 'services' or 'agreementService'.");
    }
    if (!target) throw nodeNotFound(path);
    const now = isoTimestamp(deps.clock);
    const lastUpdated = laterTimestamp(target.lastUpdated, now);
    const max = deps.config().limits.maxAgreements;
    const outcome = await putNodeAgreement(
      {
        org: path.organization,
        node: path.node,
        agreementId: path.agid,
        owner: target.owner,
        services: body.services ?? [],
        agrService: body.agreementService ?? NO_SERVICE,
        state: body.state,
        now,
        stamp: query.noheartbeat ? { lastUpdated } : { lastUpdated, lastHeartbeat: now },
        byItsNode: isTheNode(caller, path),
      },
      max,
      !Object.hasOwn(target.agreementServices ?? {}, path.agid),
    );
    if (outcome === 'no-node') throw nodeNotFound(path);
    if (outcome === 'limit') {
      throw accessDenied(`Access Denied: you are over the limit of ${max} agreements for this node`);
    }
    return ok('agreement added or updated');
  },
});
