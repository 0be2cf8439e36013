import { errors, okResponse } from '#lib/openapi/common';
import { routeList } from '#lib/openapi/route';
import { managementPoliciesResponse, policyAttributeResponse } from './shared/responses.ts';
import { getPolicyQuery, listPoliciesQuery, policiesPath, policyBody, policyPath } from './shared/schemas.ts';

const readers = 'Users, nodes and agbots of the org, multi-tenant agbots, root (other orgs: 403).';
const writers = 'Org admins and root (plain users, nodes, agbots, hub admins and other orgs: 403).';

/** Node management policies (docs/nmp.md#the-exchange): which nodes upgrade their agent, when, to what. */
export const managementPoliciesRoutes = routeList({
  folder: 'management-policies',
  mounts: [
    '/v1/orgs/{organization}/managementpolicies',
    '/v1/orgs/{organization}/managementpolicies/{proxy+}',
  ],
  tag: 'management policy',
  description: 'Node management policies: over-the-air agent upgrades',
  components: {
    GetManagementPoliciesResponse: managementPoliciesResponse,
    GetManagementPolicyAttributeResponse: policyAttributeResponse,
  },
  requests: { PostPutManagementPolicyRequest: policyBody },
  routes: [
    {
      method: 'GET',
      path: '/v1/orgs/{organization}/managementpolicies',
      operationId: 'getManagementPolicies',
      handler: () => import('./list-policies.ts'),
      summary: "The org's node management policies",
      description: `${readers} Filters \`idfilter\` (\`org/name\`), \`owner\`, \`label\`, \`description\`, \`manifest\`: exact, or LIKE with \`%\`. None: 404 with the empty map.`,
      request: { path: policiesPath, query: listPoliciesQuery },
      responses: {
        200: { description: 'the policies, by `org/name`', schema: managementPoliciesResponse },
        404: { description: 'none', schema: managementPoliciesResponse },
        ...errors(400, 401, 403),
      },
    },
    {
      method: 'GET',
      path: '/v1/orgs/{organization}/managementpolicies/{mgmtpolicy}',
      operationId: 'getManagementPolicy',
      handler: () => import('./get-policy.ts'),
      summary: 'One node management policy (in the same map as the list), or one attribute of it',
      description: `${readers} Missing: 404 with the empty map.`,
      request: { path: policyPath, query: getPolicyQuery },
      responses: {
        200: { description: 'the policy (or `{attribute,value}`)', schema: managementPoliciesResponse },
        404: { description: 'missing', schema: managementPoliciesResponse },
        ...errors(400, 401, 403),
      },
    },
    {
      method: 'POST',
      path: '/v1/orgs/{organization}/managementpolicies/{mgmtpolicy}',
      operationId: 'postManagementPolicy',
      handler: () => import('./post-policy.ts'),
      summary: 'Create a node management policy',
      description: `${writers} Not both constraints and patterns; start \`now\` or RFC 3339; constraints must parse; properties must fit their types. Duplicate: 403 already-exists (hzn then PUTs).`,
      request: { path: policyPath, body: policyBody },
      responses: { 201: okResponse('created'), ...errors(400, 401, 403, 404) },
    },
    {
      method: 'PUT',
      path: '/v1/orgs/{organization}/managementpolicies/{mgmtpolicy}',
      operationId: 'putManagementPolicy',
      handler: () => import('./put-policy.ts'),
      summary: 'Replace a node management policy',
      description: `${writers} Checks as POST; the owner and \`created\` are kept; missing: 404.`,
      request: { path: policyPath, body: policyBody },
      responses: { 201: okResponse('updated'), ...errors(400, 401, 403, 404) },
    },
    {
      method: 'DELETE',
      path: '/v1/orgs/{organization}/managementpolicies/{mgmtpolicy}',
      operationId: 'deleteManagementPolicy',
      handler: () => import('./delete-policy.ts'),
      summary: 'Delete a node management policy and every node status for it',
      description: writers,
      request: { path: policyPath },
      responses: { 204: { description: 'deleted' }, ...errors(400, 401, 403, 404) },
    },
  ],
});
