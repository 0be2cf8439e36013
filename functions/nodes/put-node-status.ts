import { endpoint } from '#functions/endpoint';
import { badInput } from '#lib/http/errors';
import { ok } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { putNodeStatus } from '#tables/node/report-records';
import { authorizeNode, nodeNotFound } from './access.ts';
import { nodesRoutes } from './routes.ts';
import { sizeProblem } from './rules.ts';
import { storedStatus } from './status-view.ts';

/**
 * PUT /v1/orgs/{organization}/nodes/{node}/status: whoever may write the node (the agent). Creates
 * or replaces the status, computing runningServices; records a `nodestatus` change; 201.
 */
export const handler = endpoint(nodesRoutes.operations.putNodeStatus, {
  authorize: ({ caller, path }) => authorizeNode(caller, path, 'WRITE'),
  async handle({ path, body, target, deps }) {
    const problem = sizeProblem(body);
    if (problem) throw badInput(problem);
    if (!target) throw nodeNotFound(path);
    const status = storedStatus(path.organization, path.node, body, isoTimestamp(deps.clock));
    if (!(await putNodeStatus(status))) throw nodeNotFound(path);
    return ok('status added or update');
  },
});
