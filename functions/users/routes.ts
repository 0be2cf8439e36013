import { orgPath } from '#lib/ids';
import { emptyListOrError, errors, okResponse } from '#lib/openapi/common';
import { routeList } from '#lib/openapi/route';
import { apiKeyMetadata, getUsersResponse, user } from './shared/responses.ts';
import { userBody, userPatchBody, userPath } from './shared/schemas.ts';

/** Users (docs/exchange.md#users). */
export const usersRoutes = routeList({
  folder: 'users',
  mounts: ['/v1/orgs/{organization}/users', '/v1/orgs/{organization}/users/{proxy+}'],
  tag: 'users',
  description: 'Users of an organization: org admins, hub admins (org root) and plain users',
  components: { User: user, GetUsersResponse: getUsersResponse, ApiKeyMetadata: apiKeyMetadata },
  requests: { UserRequest: userBody, UserPatchRequest: userPatchBody },
  routes: [
    {
      method: 'GET',
      path: '/v1/orgs/{organization}/users',
      operationId: 'getUsers',
      handler: () => import('./get-users.ts'),
      summary: 'The users of an organization',
      description: 'Org admins, hub admins (who see admins only) and root.',
      request: { path: orgPath },
      responses: {
        200: { description: 'users by `org/username`', schema: getUsersResponse },
        ...errors(401, 403),
        404: emptyListOrError(getUsersResponse),
      },
    },
    {
      method: 'GET',
      path: '/v1/orgs/{organization}/users/{username}',
      operationId: 'getUser',
      handler: () => import('./get-user.ts'),
      summary: 'One user',
      description: 'The user itself, its admins, root.',
      request: { path: userPath },
      responses: {
        200: { description: 'the user', schema: getUsersResponse },
        ...errors(401, 403),
        404: emptyListOrError(getUsersResponse),
      },
    },
    {
      method: 'POST',
      path: '/v1/orgs/{organization}/users/{username}',
      operationId: 'postUser',
      handler: () => import('./post-user.ts'),
      summary: 'Create a user',
      description: 'Org admins (own org), hub admins (admins only) and root.',
      request: { path: userPath, body: userBody },
      responses: { 201: okResponse('created'), ...errors(400, 401, 403, 404) },
    },
    {
      method: 'PUT',
      path: '/v1/orgs/{organization}/users/{username}',
      operationId: 'putUser',
      handler: () => import('./put-user.ts'),
      summary: 'Replace (or create) a user',
      description: 'The user itself, its admins, root.',
      request: { path: userPath, body: userBody },
      responses: { 201: okResponse('created or replaced'), ...errors(400, 401, 403, 404) },
    },
    {
      method: 'PATCH',
      path: '/v1/orgs/{organization}/users/{username}',
      operationId: 'patchUser',
      handler: () => import('./patch-user.ts'),
      summary: 'Change one attribute of a user',
      description: 'Exactly one of password, admin, hubAdmin, email.',
      request: { path: userPath, body: userPatchBody },
      responses: { 201: okResponse('updated'), ...errors(400, 401, 403, 404) },
    },
    {
      method: 'DELETE',
      path: '/v1/orgs/{organization}/users/{username}',
      operationId: 'deleteUser',
      handler: () => import('./delete-user.ts'),
      summary: 'Delete a user with its nodes and agbots',
      description: 'The user itself, its admins, root; never root/root.',
      request: { path: userPath },
      responses: { 204: { description: 'deleted' }, ...errors(400, 401, 403, 404) },
    },
    {
      method: 'POST',
      path: '/v1/orgs/{organization}/users/{username}/confirm',
      operationId: 'confirmUser',
      handler: () => import('./confirm-user.ts'),
      summary: 'Check credentials',
      description: '201 when the credentials are valid and may read this user.',
      request: { path: userPath },
      responses: { 201: okResponse('confirmed'), ...errors(401, 403, 404) },
    },
  ],
});
