import { adminDoc } from '#functions/admin/openapi';
import { agbotAgreementsDoc } from '#functions/agbot-agreements/openapi';
import { agbotMessagesDoc } from '#functions/agbot-messages/openapi';
import { agbotPatternsDoc } from '#functions/agbot-patterns/openapi';
import { agbotPoliciesDoc } from '#functions/agbot-policies/openapi';
import { agbotsDoc } from '#functions/agbots/openapi';
import { agentFileVersionsDoc } from '#functions/agent-file-versions/openapi';
import { nodeManagementStatusDoc } from '#functions/node-management-status/openapi';
import { nodesDoc } from '#functions/nodes/openapi';
import { orgsDoc } from '#functions/orgs/openapi';
import { usersDoc } from '#functions/users/openapi';
import { buildDocument, type OpenApiDocument } from '#lib/openapi/document';
import type { ResourceDoc } from '#lib/openapi/route';
import { EXCHANGE_VERSION } from '#lib/version';
import { openApiDoc } from './openapi.ts';

/** Every resource folder's routes, in the order the document lists them. */
export const RESOURCES: ResourceDoc[] = [
  adminDoc,
  agentFileVersionsDoc,
  orgsDoc,
  usersDoc,
  nodesDoc,
  nodeManagementStatusDoc,
  agbotsDoc,
  agbotAgreementsDoc,
  agbotPatternsDoc,
  agbotPoliciesDoc,
  agbotMessagesDoc,
  openApiDoc,
];

export function openApiDocument(): OpenApiDocument {
  return buildDocument(RESOURCES, {
    title: 'Open Horizon Exchange',
    version: EXCHANGE_VERSION,
    description:
      'Serverless, API-compatible re-implementation of the Open Horizon Exchange. Errors are ' +
      '`{"code", "msg"}` JSON; an empty list is a 404 with the empty collection.',
  });
}
