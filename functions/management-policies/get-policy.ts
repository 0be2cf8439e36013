import { endpoint } from '#functions/endpoint';
import { badInput, notFound } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import { managementPoliciesRoutes } from './routes.ts';
import { authorizePolicy } from './shared/access.ts';
import { isPolicyAttribute, policiesBody, policyAttribute } from './shared/view.ts';

/**
 * GET /v1/orgs/{organization}/managementpolicies/{mgmtpolicy}[?attribute=]: the policy in the same
 * map the list answers (upstream's answer, whatever its document says), or `{attribute,value}`.
 * Missing: 404 with the empty map; an unknown attribute: 400.
 */
export const handler = endpoint(managementPoliciesRoutes.operations.getManagementPolicy, {
  authorize: ({ caller, path }) => authorizePolicy(caller, path, 'READ'),
  handle({ query, target }) {
    if (query.attribute !== undefined) {
      if (!isPolicyAttribute(query.attribute))
        throw badInput('no valid management policy attribute specified');
      if (!target) throw notFound('not found');
      return json(200, { attribute: query.attribute, value: policyAttribute(target, query.attribute) });
    }
    return json(target ? 200 : 404, policiesBody(target ? [target] : []));
  },
});
