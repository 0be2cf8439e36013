import { errors } from '#lib/openapi/common';
import { routeList } from '#lib/openapi/route';
import {
  policyNamesResponse,
  policyStatusResponse,
  statusAgreementsQuery,
  statusAgreementsResponse,
  statusPoliciesPath,
  statusPolicyPath,
} from './shared/schemas.ts';

const who =
  'Users of the org, hub admins, root (nodes, agbots, other orgs: 403). A user sees the node names ' +
  "of their own org only. Our extension: the in-stack agbot has no port for upstream's agbot API.";

/** What the in-stack agbot (`IBM/agbot`) did with an org's policies (docs/agbot.md "Status"). */
export const agbotStatusRoutes = routeList({
  folder: 'agbot-status',
  mounts: ['/v1/orgs/{organization}/agbotstatus/{proxy+}'],
  tag: 'agbot status',
  description:
    "The in-stack agbot's status: the org's served policies, their counts and skipped nodes, its agreements",
  components: {
    AgbotPolicyNames: policyNamesResponse,
    AgbotPolicyStatus: policyStatusResponse,
    AgbotStatusAgreements: statusAgreementsResponse,
  },
  requests: {},
  routes: [
    {
      method: 'GET',
      path: '/v1/orgs/{organization}/agbotstatus/policies',
      operationId: 'listAgbotStatusPolicies',
      handler: () => import('./list-policies.ts'),
      summary: "The org's policies and pattern services the in-stack agbot serves",
      description: `${who} Upstream's agbot \`GET /policy/{org}\` shape. One Query.`,
      request: { path: statusPoliciesPath },
      responses: {
        200: { description: 'org → names', schema: policyNamesResponse },
        ...errors(400, 401, 403),
      },
    },
    {
      method: 'GET',
      path: '/v1/orgs/{organization}/agbotstatus/policies/{policy}',
      operationId: 'getAgbotStatusPolicy',
      handler: () => import('./get-policy.ts'),
      summary: 'One policy: matched, proposed, agreed and running nodes, the last search, skipped nodes',
      description: `${who} 404 when the agbot has nothing on it. One Query.`,
      request: { path: statusPolicyPath },
      responses: {
        200: { description: 'the status', schema: policyStatusResponse },
        ...errors(400, 401, 403, 404),
      },
    },
    {
      method: 'GET',
      path: '/v1/orgs/{organization}/agbotstatus/agreements',
      operationId: 'listAgbotStatusAgreements',
      handler: () => import('./list-agreements.ts'),
      summary: "The in-stack agbot's agreements for the org's policies",
      description: `${who} Active ones, or archived ones with \`archived=true\`, in upstream's agbot \`GET /agreement\` shape. One Query.`,
      request: { path: statusPoliciesPath, query: statusAgreementsQuery },
      responses: {
        200: { description: 'the agreements', schema: statusAgreementsResponse },
        ...errors(400, 401, 403),
      },
    },
  ],
});
