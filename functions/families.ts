import { adminRoutes } from '#functions/admin/routes';
import { agbotAgreementsRoutes } from '#functions/agbot-agreements/routes';
import { agbotMessagesRoutes } from '#functions/agbot-messages/routes';
import { agbotPatternsRoutes } from '#functions/agbot-patterns/routes';
import { agbotPoliciesRoutes } from '#functions/agbot-policies/routes';
import { AGBOT_ROUND_FUNCTION } from '#functions/agbot-round/function';
import { agbotStatusRoutes } from '#functions/agbot-status/routes';
import { agbotsRoutes } from '#functions/agbots/routes';
import { agentFileVersionsRoutes } from '#functions/agent-file-versions/routes';
import { catalogRoutes } from '#functions/catalog/routes';
import { changesRoutes } from '#functions/changes/routes';
import { consoleRoutes } from '#functions/console/routes';
import { deploymentPoliciesRoutes } from '#functions/deployment-policies/routes';
import { managementPoliciesRoutes } from '#functions/management-policies/routes';
import { nodeAgreementsRoutes } from '#functions/node-agreements/routes';
import { nodeManagementStatusRoutes } from '#functions/node-management-status/routes';
import { nodeMessagesRoutes } from '#functions/node-messages/routes';
import { nodesRoutes } from '#functions/nodes/routes';
import { objectsRoutes } from '#functions/objects/routes';
import { openApiRoutes } from '#functions/openapi/routes';
import { orgsRoutes } from '#functions/orgs/routes';
import { patternsRoutes } from '#functions/patterns/routes';
import { rolloutsRoutes } from '#functions/rollouts/routes';
import { secretsRoutes } from '#functions/secrets/routes';
import { servicesRoutes } from '#functions/services/routes';
import { SIGNALS_DISPATCH_FUNCTION, SIGNALS_FUNCTION } from '#functions/signals/function';
import { usersRoutes } from '#functions/users/routes';
import type { ResourceDoc } from '#lib/openapi/route';
import { serverlessFunctions } from '#lib/openapi/serverless';

/**
 * Every resource family's route list, in the order the OpenAPI document lists them. Each family
 * is one Lambda (functions/<folder>/lambda.ts); serverless.yml's functions are generated from
 * this list (functions/serverless-functions.cjs).
 */
export const FAMILIES: ResourceDoc[] = [
  adminRoutes,
  agentFileVersionsRoutes,
  orgsRoutes,
  usersRoutes,
  nodesRoutes,
  nodeManagementStatusRoutes,
  nodeAgreementsRoutes,
  nodeMessagesRoutes,
  agbotsRoutes,
  agbotAgreementsRoutes,
  agbotPatternsRoutes,
  agbotPoliciesRoutes,
  agbotMessagesRoutes,
  agbotStatusRoutes,
  servicesRoutes,
  catalogRoutes,
  patternsRoutes,
  deploymentPoliciesRoutes,
  rolloutsRoutes,
  managementPoliciesRoutes,
  objectsRoutes,
  changesRoutes,
  secretsRoutes,
  consoleRoutes,
  openApiRoutes,
];

/** Every path no family mounts: authenticate, then a JSON 404 (functions/fallback). */
export const FALLBACK = {
  name: 'unrecognizedRoute',
  handler: 'fallback/unrecognized-route',
  mount: '/{proxy+}',
} as const;

/** The HTTP API's functions: one per family and the catch-all. */
export const functions = () => serverlessFunctions(FAMILIES, FALLBACK);

/**
 * serverless.yml's `functions:` (read through functions/serverless-functions.cjs): the HTTP API's,
 * the signal channel's, its dispatcher's and the in-stack agbot's.
 */
export const stackFunctions = () => ({
  ...functions(),
  signals: SIGNALS_FUNCTION,
  signalsDispatch: SIGNALS_DISPATCH_FUNCTION,
  agbotRound: AGBOT_ROUND_FUNCTION,
});
