import * as z from 'zod';
import { confirmAgreementBody } from '#functions/agbot-agreements/shared/schemas';
import { orgPath } from '#lib/ids';
import { attributeResponse, emptyListOrError, errors, okResponse } from '#lib/openapi/common';
import { routeList } from '#lib/openapi/route';
import { getOrgsResponse, heartbeatIntervals, org } from './shared/responses.ts';
import { getOrgQuery, getOrgsQuery, orgBody, orgPatchBody } from './shared/schemas.ts';

/**
 * Organizations (docs/exchange.md#organizations), and the confirmation of an agbot's agreement: its path is under
 * `/v1/orgs/{organization}`, which this family's `/v1/orgs/{proxy+}` mount receives.
 */
export const orgsRoutes = routeList({
  folder: 'orgs',
  mounts: ['/v1/orgs', '/v1/orgs/{proxy+}'],
  tag: 'organizations',
  description: 'Organizations: the tenants everything else belongs to',
  components: {
    Org: org,
    GetOrgsResponse: getOrgsResponse,
    HeartbeatIntervals: heartbeatIntervals,
    AttributeResponse: attributeResponse,
  },
  requests: {
    OrgRequest: orgBody,
    OrgPatchRequest: orgPatchBody,
    ConfirmAgreementRequest: confirmAgreementBody,
  },
  routes: [
    {
      method: 'GET',
      path: '/v1/orgs',
      operationId: 'getOrgs',
      handler: () => import('./get-orgs.ts'),
      summary: 'The organizations the caller may see',
      description:
        'Root and hub admins see all; org admins and users their own and IBM; nodes and agbots their own. ' +
        'Filters: `%` is a wildcard.',
      request: { query: getOrgsQuery },
      responses: {
        200: { description: 'orgs by id', schema: getOrgsResponse },
        ...errors(400, 401, 403),
        404: { description: 'none: the empty map', schema: getOrgsResponse },
      },
    },
    {
      method: 'GET',
      path: '/v1/orgs/{organization}',
      operationId: 'getOrg',
      handler: () => import('./get-org.ts'),
      summary: 'One organization, or one of its attributes',
      description: 'Any identity of the org, hub admins, root.',
      request: { path: orgPath, query: getOrgQuery },
      responses: {
        200: {
          description: 'the org, or `{attribute, value}` with `?attribute=`',
          schema: z.union([getOrgsResponse, attributeResponse]),
        },
        ...errors(400, 401, 403),
        404: emptyListOrError(getOrgsResponse),
      },
    },
    {
      method: 'POST',
      path: '/v1/orgs/{organization}',
      operationId: 'postOrg',
      handler: () => import('./post-org.ts'),
      summary: 'Create an organization',
      description: 'Root and hub admins.',
      request: { path: orgPath, body: orgBody },
      responses: { 201: okResponse('created'), ...errors(400, 401, 403, 409) },
    },
    {
      method: 'PUT',
      path: '/v1/orgs/{organization}',
      operationId: 'putOrg',
      handler: () => import('./put-org.ts'),
      summary: 'Replace an organization',
      description: 'Root, hub admins, its org admins; setting orgType IBM needs root or a hub admin.',
      request: { path: orgPath, body: orgBody },
      responses: { 201: okResponse('replaced'), ...errors(400, 401, 403, 404) },
    },
    {
      method: 'PATCH',
      path: '/v1/orgs/{organization}',
      operationId: 'patchOrg',
      handler: () => import('./patch-org.ts'),
      summary: 'Change one attribute of an organization',
      description: 'As PUT. The first attribute present (upstream order) is applied.',
      request: { path: orgPath, body: orgPatchBody },
      responses: { 201: okResponse('updated'), ...errors(400, 401, 403, 404) },
    },
    {
      method: 'DELETE',
      path: '/v1/orgs/{organization}',
      operationId: 'deleteOrg',
      handler: () => import('./delete-org.ts'),
      summary: 'Delete an organization and everything in it',
      description: 'Root and hub admins; never org root.',
      request: { path: orgPath },
      responses: { 204: { description: 'deleted' }, ...errors(401, 403, 404) },
    },
    {
      method: 'POST',
      path: '/v1/orgs/{organization}/agreements/confirm',
      operationId: 'confirmAgreement',
      handler: () => import('./confirm-agreement.ts'),
      summary: 'Confirm that an agreement is active',
      description:
        'Users and agbots of the org, hub admins, root (nodes: 403). 201 when the agreement exists, is ' +
        "active and belongs to an agbot of the caller (a user's own agbots; for an agbot, its owner's).",
      request: { path: orgPath, body: confirmAgreementBody },
      responses: { 201: okResponse('active'), ...errors(400, 401, 403, 404) },
    },
  ],
});
