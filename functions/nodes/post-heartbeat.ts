import { endpoint } from '#functions/endpoint';
import { authorize } from '#lib/auth/access';
import { ok } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { recordHeartbeat } from '#tables/node/records';
import { authorizeNode, nodeNotFound } from './access.ts';
import { nodesRoutes } from './routes.ts';

/**
 * POST /v1/orgs/{organization}/nodes/{node}/heartbeat: the node itself, its owner, org admins,
 * root. Sets lastHeartbeat only.
 */
export const handler = endpoint(nodesRoutes.operations.postNodeHeartbeat, {
  async authorize({ caller, path }) {
    // The usual caller is the node itself, which just authenticated: no need to read it first.
    if (caller.kind === 'node' && caller.org === path.organization && caller.id === path.node) {
      authorize(caller, { type: 'node', org: path.organization, id: path.node, exists: true }, 'WRITE');
      return;
    }
    await authorizeNode(caller, path, 'WRITE');
  },
  async handle({ path, deps }) {
    if (!(await recordHeartbeat(path.organization, path.node, isoTimestamp(deps.clock))))
      throw nodeNotFound(path);
    return ok('node updated');
  },
});
