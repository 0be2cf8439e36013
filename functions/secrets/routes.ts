import { errorResponse, errors, okResponse } from '#lib/openapi/common';
import { routeList } from '#lib/openapi/route';
import { secretNames, secretValue } from './shared/responses.ts';
import {
  deliveryQuery,
  listQuery,
  nodeTreePath,
  orgPath,
  secretBody,
  secretPath,
  userNodeTreePath,
  userTreePath,
} from './shared/schemas.ts';

const LIST_TEXT =
  'Names only, never values; `?details=true` gives `{name, lastUpdated}` entries (for agbots that missed the change feed).';
const NAME_TEXT =
  '`{secret}` may contain `/` and takes the forms `<name>` (org), `node/{node}/<name>`, `user/{user}/<name>`, `user/{user}/node/{node}/<name>`; characters `[A-Za-z0-9_/-]`, at most 256. A bad form is 400 with the reason.';
const integrity = {
  description: 'the stored value failed its integrity check (moved or altered)',
  schema: errorResponse,
};

/** The secrets manager (issue 12; docs/exchange-catalog.md#secrets-manager): sealed secrets that services bind to. */
export const secretsRoutes = routeList({
  folder: 'secrets',
  mounts: [
    '/v1/orgs/{organization}/secrets',
    '/v1/orgs/{organization}/secrets/{proxy+}',
    '/v1/orgs/{organization}/allsecrets',
  ],
  tag: 'secrets',
  description: 'Secrets for services, encrypted at rest; agbots read bound values for delivery',
  components: { SecretValue: secretValue, SecretNames: secretNames },
  requests: { PutSecretRequest: secretBody },
  routes: [
    {
      method: 'GET',
      path: '/v1/orgs/{organization}/secrets',
      operationId: 'listSecrets',
      handler: () => import('./list-secrets.ts'),
      summary: "The org's secret names (without the user/ and node/ trees)",
      description: `Users and org admins of the org. ${LIST_TEXT}`,
      request: { path: orgPath, query: listQuery },
      responses: { 200: { description: 'names', schema: secretNames }, ...errors(400, 401, 403) },
    },
    {
      method: 'GET',
      path: '/v1/orgs/{organization}/allsecrets',
      operationId: 'listAllSecrets',
      handler: () => import('./list-all-secrets.ts'),
      summary: 'Every secret name the caller may list, relative to the org',
      description: `Plain users see the org and node trees; org admins and serving agbots also every user's. ${LIST_TEXT}`,
      request: { path: orgPath, query: listQuery },
      responses: { 200: { description: 'names', schema: secretNames }, ...errors(400, 401, 403) },
    },
    {
      method: 'GET',
      path: '/v1/orgs/{organization}/secrets/node/{node}',
      operationId: 'listNodeSecrets',
      handler: () => import('./list-node-secrets.ts'),
      summary: "A node's org secrets, prefix `node/{node}/` removed",
      description: `Users and org admins of the org. ${LIST_TEXT}`,
      request: { path: nodeTreePath, query: listQuery },
      responses: { 200: { description: 'names', schema: secretNames }, ...errors(400, 401, 403) },
    },
    {
      method: 'GET',
      path: '/v1/orgs/{organization}/secrets/user/{user}',
      operationId: 'listUserSecrets',
      handler: () => import('./list-user-secrets.ts'),
      summary: "A user's secrets, prefix `user/{user}/` removed",
      description: `The user itself, org admins. ${LIST_TEXT}`,
      request: { path: userTreePath, query: listQuery },
      responses: { 200: { description: 'names', schema: secretNames }, ...errors(400, 401, 403) },
    },
    {
      method: 'GET',
      path: '/v1/orgs/{organization}/secrets/user/{user}/node/{node}',
      operationId: 'listUserNodeSecrets',
      handler: () => import('./list-user-node-secrets.ts'),
      summary: "A user's secrets for one node, prefix removed",
      description: `The user itself, org admins. ${LIST_TEXT}`,
      request: { path: userNodeTreePath, query: listQuery },
      responses: { 200: { description: 'names', schema: secretNames }, ...errors(400, 401, 403) },
    },
    {
      method: 'GET',
      path: '/v1/orgs/{organization}/secrets/{secret}',
      operationId: 'getSecret',
      handler: () => import('./get-secret.ts'),
      summary: 'Read a secret',
      description: `Org and node secrets: org admins; user secrets: that user only. An agbot reads a value only to deliver it for the deployment policy or pattern named by \`policy\` or \`pattern\`, which it must serve and which must bind the name (README "Secrets"). ${NAME_TEXT}`,
      request: { path: secretPath, query: deliveryQuery },
      responses: {
        200: { description: 'the secret', schema: secretValue },
        ...errors(400, 401, 403, 404),
        409: integrity,
      },
    },
    {
      method: 'PUT',
      path: '/v1/orgs/{organization}/secrets/{secret}',
      operationId: 'putSecret',
      handler: () => import('./put-secret.ts'),
      summary: 'Create or overwrite a secret',
      description: `Org and node secrets: org admins; user secrets: that user only. Body \`{key, value}\` (strings), at most 64 KB. ${NAME_TEXT}`,
      request: { path: secretPath, body: secretBody },
      responses: { 201: okResponse('created or updated'), ...errors(400, 401, 403) },
    },
    {
      method: 'POST',
      path: '/v1/orgs/{organization}/secrets/{secret}',
      operationId: 'postSecret',
      handler: () => import('./post-secret.ts'),
      summary: 'Create or overwrite a secret (as PUT)',
      description: `As PUT. ${NAME_TEXT}`,
      request: { path: secretPath, body: secretBody },
      responses: { 201: okResponse('created or updated'), ...errors(400, 401, 403) },
    },
    {
      method: 'DELETE',
      path: '/v1/orgs/{organization}/secrets/{secret}',
      operationId: 'deleteSecret',
      handler: () => import('./delete-secret.ts'),
      summary: 'Delete a secret',
      description: `Org and node secrets: org admins; user secrets: that user or an org admin. ${NAME_TEXT}`,
      request: { path: secretPath },
      responses: { 204: { description: 'deleted' }, ...errors(400, 401, 403, 404) },
    },
  ],
});
