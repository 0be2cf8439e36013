import { endpoint } from '#functions/endpoint';
import { badInput } from '#lib/http/errors';
import { ok } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { putNodeStatus } from '#tables/node/report-records';
import { authorizeNode, isTheNode, nodeNotFound } from './access.ts';
import { nodesRoutes } from './routes.ts';
import { sizeProblem } from './rules.ts';
import { storedStatus } from './status-view.ts';

/**
 * PUT /v1/orgs/{organization}/nodes/{node}/status: whoever may write the node (the agent). Creates
 * or replaces the status, computing runningServices; records a `nodestatus` change; 201. The node
 * writing its own status (the agent, at each change of its workloads) reads nothing to be
 * authorized: its credentials were checked against its record, and the write checks that the node
 * is still there (404 otherwise), so it is one transaction.
 */
export const handler = endpoint(nodesRoutes.operations.putNodeStatus, {
  authorize: async ({ caller, path }) =>
    isTheNode(caller, path) || (await authorizeNode(caller, path, 'WRITE')) !== undefined,
  async handle({ path, body, target: nodeMayExist, deps }) {
    const problem = sizeProblem(body);
    if (problem) throw badInput(problem);
    if (!nodeMayExist) throw nodeNotFound(path);
    const status = storedStatus(path.organization, path.node, body, isoTimestamp(deps.clock));
    if (!(await putNodeStatus(status))) throw nodeNotFound(path);
    return ok('status added or update');
  },
});
