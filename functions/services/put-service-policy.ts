import { endpoint } from '#functions/endpoint';
import { sizeProblem } from '#functions/nodes/rules';
import { badInput } from '#lib/http/errors';
import { ok } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { putServicePolicy } from '#tables/service/children';
import { servicesRoutes } from './routes.ts';
import { authorizeService, serviceNotFound } from './shared/access.ts';
import { servicePolicyProblem, storedServicePolicy } from './shared/policy-rules.ts';

/** PUT /v1/orgs/{organization}/services/{service}/policy: whoever may write the service. Upsert. */
export const handler = endpoint(servicesRoutes.operations.putServicePolicy, {
  authorize: ({ caller, path }) => authorizeService(caller, path, 'WRITE'),
  async handle({ path, body, target, deps }) {
    const problem = servicePolicyProblem(body) ?? sizeProblem(body);
    if (problem) throw badInput(problem);
    if (!target) throw serviceNotFound(path);
    const stored = await putServicePolicy(target, storedServicePolicy(body, isoTimestamp(deps.clock)));
    if (!stored) throw serviceNotFound(path);
    return ok('policy added or updated');
  },
});
