import { orgPath } from '#lib/ids';
import { errors, okResponse } from '#lib/openapi/common';
import { routeList } from '#lib/openapi/route';
import { adminOrgStatus, adminStatus, dropTokenResponse } from './shared/responses.ts';

/** Administration (docs/exchange.md#administration, #org-status). */
export const adminRoutes = routeList({
  folder: 'admin',
  mounts: ['/v1/admin/{proxy+}', '/v1/orgs/{organization}/status'],
  tag: 'administration',
  description: 'Server status, version, configuration reload and database initialisation',
  components: {
    AdminStatus: adminStatus,
    AdminOrgStatus: adminOrgStatus,
    AdminDropdbTokenResponse: dropTokenResponse,
  },
  routes: [
    {
      method: 'GET',
      path: '/v1/admin/version',
      operationId: 'adminVersion',
      handler: () => import('./version.ts'),
      summary: 'The server version, as plain text',
      anonymous: true,
      responses: { 200: { description: 'the version and a newline, no JSON, no quotes', text: true } },
    },
    {
      method: 'GET',
      path: '/v1/admin/status',
      operationId: 'adminStatus',
      handler: () => import('./status.ts'),
      summary: 'Totals of key resources the caller may see',
      description: 'Root, hub admins, org admins and users.',
      responses: { 200: { description: 'status figures', schema: adminStatus }, ...errors(401, 403) },
    },
    {
      method: 'GET',
      path: '/v1/orgs/{organization}/status',
      operationId: 'orgStatus',
      handler: () => import('./org-status.ts'),
      summary: 'Totals of key resources of one organization',
      description: 'Any identity of the organization, hub admins and root.',
      request: { path: orgPath },
      responses: { 200: { description: 'status figures', schema: adminStatus }, ...errors(401, 403, 404) },
    },
    {
      method: 'GET',
      path: '/v1/admin/orgstatus',
      operationId: 'adminOrgStatus',
      handler: () => import('./orgstatus.ts'),
      summary: 'Nodes per organization',
      description: 'Root, hub admins and org admins.',
      responses: { 200: { description: 'nodes per org', schema: adminOrgStatus }, ...errors(401, 403) },
    },
    {
      method: 'POST',
      path: '/v1/admin/reload',
      operationId: 'adminReload',
      handler: () => import('./reload.ts'),
      summary: 'Reread the configuration file and environment',
      description: 'Root only. An invalid file keeps the running settings (500 saying why).',
      responses: { 201: okResponse('reloaded'), ...errors(401, 403, 500) },
    },
    {
      method: 'POST',
      path: '/v1/admin/initdb',
      operationId: 'adminInitDb',
      handler: () => import('./initdb.ts'),
      summary:
        'Create what the server needs (orgs root and IBM, user root/root, the built-in agbot IBM/agbot)',
      description: 'Root only; idempotent.',
      responses: { 201: okResponse('initialized'), ...errors(401, 403) },
    },
    {
      method: 'GET',
      path: '/v1/admin/dropdb/token',
      operationId: 'adminDropDbToken',
      handler: () => import('./dropdb-token.ts'),
      summary: 'A one-time token for POST /v1/admin/dropdb',
      description: 'Root only. The token replaces any earlier one and is valid 10 minutes.',
      responses: { 200: { description: 'the token', schema: dropTokenResponse }, ...errors(401, 403) },
    },
    {
      method: 'POST',
      path: '/v1/admin/dropdb',
      operationId: 'adminDropDb',
      handler: () => import('./dropdb.ts'),
      summary: 'Delete all data',
      description:
        'Basic auth `root/root` with the token from GET /v1/admin/dropdb/token as the password; once.',
      responses: { 201: okResponse('everything deleted'), ...errors(401, 403) },
    },
  ],
});
