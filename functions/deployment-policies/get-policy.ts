import { endpoint } from '#functions/endpoint';
import { notFound } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import { deploymentPoliciesRoutes } from './routes.ts';
import { authorizePolicy } from './shared/access.ts';
import { policiesBody, policyAttribute } from './shared/policy-view.ts';

/**
 * GET /v1/orgs/{organization}/business/policies/{policy}[?attribute=]: any identity of the org,
 * multi-tenant agbots, root. A missing policy: 404 with the empty map (upstream's answer).
 */
export const handler = endpoint(deploymentPoliciesRoutes.operations.getBusinessPolicy, {
  authorize: ({ caller, path }) => authorizePolicy(caller, path, 'READ'),
  handle({ query, target }) {
    if (query.attribute !== undefined) {
      const value = target && policyAttribute(target, query.attribute);
      if (value === undefined) throw notFound('not found');
      return json(200, { attribute: query.attribute, value });
    }
    return json(target ? 200 : 404, policiesBody(target ? [target] : []));
  },
});
