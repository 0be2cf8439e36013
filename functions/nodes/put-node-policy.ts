import { endpoint } from '#functions/endpoint';
import { badInput } from '#lib/http/errors';
import { ok } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { putNodePolicy } from '#tables/node/policy-records';
import { laterTimestamp } from '#tables/node/records';
import { authorizeNode, nodeNotFound } from './access.ts';
import { policyProblem, storedPolicy } from './policy-view.ts';
import { nodesRoutes } from './routes.ts';
import { sizeProblem } from './rules.ts';

/**
 * PUT /v1/orgs/{organization}/nodes/{node}/policy[?noheartbeat=]: whoever may write the node.
 * Upserts the policy and stamps the node in one transaction; a missing node is a 404.
 */
export const handler = endpoint(nodesRoutes.operations.putNodePolicy, {
  authorize: ({ caller, path }) => authorizeNode(caller, path, 'WRITE'),
  async handle({ path, query, body, target, deps }) {
    const problem = policyProblem(body) ?? sizeProblem(body);
    if (problem) throw badInput(problem);
    if (!target) throw nodeNotFound(path);
    const now = isoTimestamp(deps.clock);
    const lastUpdated = laterTimestamp(target.lastUpdated, now);
    const stamp = query.noheartbeat ? { lastUpdated } : { lastUpdated, lastHeartbeat: now };
    const stored = await putNodePolicy(storedPolicy(path.organization, path.node, body, now), stamp);
    if (!stored) throw nodeNotFound(path);
    return ok('policy added or updated');
  },
});
