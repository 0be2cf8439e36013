import { endpoint } from '#functions/endpoint';
import { badInput } from '#lib/http/errors';
import { ok } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { putNodeErrors } from '#tables/node/report-records';
import { authorizeNode, nodeNotFound } from './access.ts';
import { nodesRoutes } from './routes.ts';
import { sizeProblem } from './rules.ts';

/**
 * PUT /v1/orgs/{organization}/nodes/{node}/errors: whoever may write the node (the agent).
 * Replaces the node's surfaced errors; records a `nodeerrors` change; 201.
 */
export const handler = endpoint(nodesRoutes.operations.putNodeErrors, {
  authorize: ({ caller, path }) => authorizeNode(caller, path, 'WRITE'),
  async handle({ path, body, target, deps }) {
    const problem = sizeProblem(body);
    if (problem) throw badInput(problem);
    if (!target) throw nodeNotFound(path);
    const record = {
      org: path.organization,
      id: path.node,
      errors: body.errors,
      lastUpdated: isoTimestamp(deps.clock),
    };
    if (!(await putNodeErrors(record))) throw nodeNotFound(path);
    return ok('node errors added or updated');
  },
});
