import { endpoint } from '#functions/endpoint';
import { badInput } from '#lib/http/errors';
import { ok } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { authorizeNode } from './access.ts';
import { patternProblem, userInputProblem } from './reference-rules.ts';
import { nodesRoutes } from './routes.ts';
import { putBodyProblem, sizeProblem } from './rules.ts';
import { saveNode } from './save-node.ts';

/**
 * PUT /v1/orgs/{organization}/nodes/{node}[?noheartbeat=]: creates (owner = caller) or replaces a
 * node. Owner, org admins, root and the node itself; a same-org user may create a missing one.
 */
export const handler = endpoint(nodesRoutes.operations.putNode, {
  authorize: ({ caller, path }) => authorizeNode(caller, path, 'WRITE'),
  async handle({ caller, path, query, body, target, deps }) {
    const problem = putBodyProblem(body, caller, path.organization, path.node) ?? sizeProblem(body);
    if (problem) throw badInput(problem);
    const reference =
      (body.pattern ? await patternProblem(caller, path.organization, body.pattern) : undefined) ??
      (await userInputProblem(caller, path.organization, body.userInput ?? []));
    if (reference)
      throw badInput(`node '${path.organization}/${path.node}' not inserted or updated: ${reference}`);
    const request = {
      caller,
      path,
      body,
      noHeartbeat: query.noheartbeat === true,
      now: isoTimestamp(deps.clock),
    };
    return ok(await saveNode({ ...request, config: deps.config() }, target));
  },
});
