import { policySearchConflict, policySearchResponse } from '#functions/node-search/responses';
import { policySearchBody } from '#functions/node-search/schemas';
import { withAliases } from '#lib/openapi/alias';
import { errors, okResponse } from '#lib/openapi/common';
import { routeList } from '#lib/openapi/route';
import { deploymentPoliciesResponse, policyAttributeResponse } from './shared/responses.ts';
import {
  getPolicyQuery,
  listPoliciesQuery,
  patchPolicyBody,
  policiesPath,
  policyBody,
  policyPath,
} from './shared/schemas.ts';

const who = 'Users and admins of the org, root (nodes, agbots, hub admins and other orgs: 403).';
const writers = 'The owner, org admins, root; 404 when missing.';

/** Deployment (business) policies (docs/exchange-catalog.md#deployment-policies): anax's `/business/...` and the documented `/deployment/...`. */
export const deploymentPoliciesRoutes = routeList({
  folder: 'deployment-policies',
  mounts: ['/v1/orgs/{organization}/business/{proxy+}', '/v1/orgs/{organization}/deployment/{proxy+}'],
  tag: 'deployment policies',
  description: 'Deployment policies: which service to run on the nodes whose policy matches',
  components: {
    GetBusinessPoliciesResponse: deploymentPoliciesResponse,
    GetBusinessPolicyAttributeResponse: policyAttributeResponse,
  },
  requests: { PostPutBusinessPolicyRequest: policyBody, PatchBusinessPolicyRequest: patchPolicyBody },
  routes: withAliases(
    [
      {
        method: 'GET',
        path: '/v1/orgs/{organization}/business/policies',
        operationId: 'getBusinessPolicies',
        handler: () => import('./list-policies.ts'),
        summary: "The org's deployment policies",
        description:
          'Identities of the org, multi-tenant agbots, root; other orgs 403 (policies are never public). ' +
          'Filters `idfilter` (`org/name`), `owner`, `label`, `description`: exact, or LIKE with `%`. None: 404 with the empty map.',
        request: { path: policiesPath, query: listPoliciesQuery },
        responses: {
          200: { description: 'the policies', schema: deploymentPoliciesResponse },
          404: { description: 'none', schema: deploymentPoliciesResponse },
          ...errors(400, 401, 403),
        },
      },
      {
        method: 'GET',
        path: '/v1/orgs/{organization}/business/policies/{policy}',
        operationId: 'getBusinessPolicy',
        handler: () => import('./get-policy.ts'),
        summary: 'One deployment policy, or one attribute of it',
        description: 'Identities of the org, multi-tenant agbots, root. Missing: 404 with the empty map.',
        request: { path: policyPath, query: getPolicyQuery },
        responses: {
          200: { description: 'the policy (or `{attribute,value}`)', schema: deploymentPoliciesResponse },
          404: { description: 'missing', schema: deploymentPoliciesResponse },
          ...errors(400, 401, 403),
        },
      },
      {
        method: 'POST',
        path: '/v1/orgs/{organization}/business/policies/{policy}',
        operationId: 'postBusinessPolicy',
        handler: () => import('./post-policy.ts'),
        summary: 'Create a deployment policy',
        description: `${who} The service (each version) and userInput services must exist; constraints must parse. Duplicate: 403 already-exists.`,
        request: { path: policyPath, body: policyBody },
        responses: { 201: okResponse('created'), ...errors(400, 401, 403, 404) },
      },
      {
        method: 'PUT',
        path: '/v1/orgs/{organization}/business/policies/{policy}',
        operationId: 'putBusinessPolicy',
        handler: () => import('./put-policy.ts'),
        summary: 'Replace a deployment policy',
        description: `${writers} Everything but \`created\` and the owner is replaced; checks as POST.`,
        request: { path: policyPath, body: policyBody },
        responses: { 201: okResponse('updated'), ...errors(400, 401, 403, 404) },
      },
      {
        method: 'PATCH',
        path: '/v1/orgs/{organization}/business/policies/{policy}',
        operationId: 'patchBusinessPolicy',
        handler: () => import('./patch-policy.ts'),
        summary: 'Change one attribute of a deployment policy',
        description: `${writers} The first present of constraints, description, label, properties, secretBinding, service, userInput.`,
        request: { path: policyPath, body: patchPolicyBody },
        responses: { 201: okResponse('updated'), ...errors(400, 401, 403, 404) },
      },
      {
        method: 'DELETE',
        path: '/v1/orgs/{organization}/business/policies/{policy}',
        operationId: 'deleteBusinessPolicy',
        handler: () => import('./delete-policy.ts'),
        summary: 'Delete a deployment policy',
        description: writers,
        request: { path: policyPath },
        responses: { 204: { description: 'deleted' }, ...errors(400, 401, 403, 404) },
      },
      {
        method: 'POST',
        path: '/v1/orgs/{organization}/business/policies/{policy}/search',
        operationId: 'postBusinessPolicySearch',
        handler: () => import('./search-policy.ts'),
        summary: "The policy nodes an agbot may propose the policy's service to, a page at a time",
        description:
          'Org admins, agbots of the org (for what they serve), multi-tenant agbots, root. Nodes of `nodeOrgids` (default the org) ' +
          "with no pattern, a public key, a heartbeat, the policy's arch and no agreement for its service with a state, oldest " +
          '`lastUpdated` first, from the offset kept for this agbot and `session` (else `changedSince`, epoch seconds), at most ' +
          '`numEntries`. Another session than the kept one: 409 carrying it. Node policies are not evaluated (the agbot does). None: 404 with `nodes: []`.',
        request: { path: policyPath, body: policySearchBody },
        responses: {
          201: { description: 'a page of nodes', schema: policySearchResponse },
          404: { description: 'none', schema: policySearchResponse },
          409: { description: 'the session is not the one kept', schema: policySearchConflict },
          ...errors(400, 401, 403),
        },
      },
    ],
    {
      getBusinessPolicies: '/v1/orgs/{organization}/deployment/policies',
      getBusinessPolicy: '/v1/orgs/{organization}/deployment/policies/{policy}',
      postBusinessPolicy: '/v1/orgs/{organization}/deployment/policies/{policy}',
      putBusinessPolicy: '/v1/orgs/{organization}/deployment/policies/{policy}',
      patchBusinessPolicy: '/v1/orgs/{organization}/deployment/policies/{policy}',
      deleteBusinessPolicy: '/v1/orgs/{organization}/deployment/policies/{policy}',
      postBusinessPolicySearch: '/v1/orgs/{organization}/deployment/policies/{policy}/search',
    },
  ),
});
