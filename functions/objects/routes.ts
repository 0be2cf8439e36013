import * as z from 'zod';
import { errors } from '#lib/openapi/common';
import { routeList } from '#lib/openapi/route';
import { listQuery, objectPath, orgPath, putObjectBody, rawData, typePath } from './shared/schemas.ts';

const metadata = z.record(z.string(), z.json()).meta({ id: 'ObjectMetadata' });
const metadataList = z.array(z.union([metadata, z.string()]));
const readers =
  'Identities of the org, multi-tenant agbots, root; anyone for a public object (org IBM only).';
const writers = 'Org admins and root.';

/**
 * The object store (docs/nmp.md#the-object-store): the part of upstream's CSS object API that
 * `hzn nm manifest`, `hzn nm agentfiles` and agents use, at `/v1/css/api/v1/objects/...` on the API's
 * origin (the node's `HZN_FSS_CSSURL` is `<exchange URL>/css`). Metadata in the table; data in S3 or the local store.
 */
export const objectsRoutes = routeList({
  folder: 'objects',
  mounts: ['/v1/css/api/v1/objects/{proxy+}'],
  tag: 'objects',
  description: 'Agent files and upgrade manifests: metadata here, data in S3 (or the local store)',
  components: { ObjectMetadata: metadata },
  requests: { PutObjectRequest: putObjectBody },
  routes: [
    {
      method: 'GET',
      path: '/v1/css/api/v1/objects/{organization}',
      operationId: 'listObjects',
      handler: () => import('./list-objects.ts'),
      summary: "The metadata of the org's objects, filtered",
      description: `${readers} Filters \`objectType\`, \`objectID\`, \`public\`; \`list_object_type=true\`: the types instead. None: 404 with \`[]\`.`,
      request: { path: orgPath, query: listQuery },
      responses: {
        200: { description: 'metadata', schema: metadataList },
        404: { description: 'none', schema: metadataList },
        ...errors(400, 401),
      },
    },
    {
      method: 'GET',
      path: '/v1/css/api/v1/objects/{organization}/{objectType}',
      operationId: 'listTypeObjects',
      handler: () => import('./list-type-objects.ts'),
      summary: "The metadata of the org's objects of one type",
      description: `${readers} None: 404 with \`[]\`.`,
      request: { path: typePath },
      responses: {
        200: { description: 'metadata', schema: metadataList },
        404: { description: 'none', schema: metadataList },
        ...errors(400, 401),
      },
    },
    {
      method: 'GET',
      path: '/v1/css/api/v1/objects/{organization}/{objectType}/{objectID}',
      operationId: 'getObject',
      handler: () => import('./get-object.ts'),
      summary: "An object's metadata",
      description: `${readers} Missing or not readable: 404.`,
      request: { path: objectPath },
      responses: { 200: { description: 'metadata', schema: metadata }, ...errors(400, 401, 404) },
    },
    {
      method: 'PUT',
      path: '/v1/css/api/v1/objects/{organization}/{objectType}/{objectID}',
      operationId: 'putObject',
      handler: () => import('./put-object.ts'),
      summary: "Create or replace an object's metadata (publishes the data already uploaded)",
      description: writers,
      request: { path: objectPath, body: putObjectBody },
      responses: { 204: { description: 'stored' }, ...errors(400, 401, 403, 503) },
    },
    {
      method: 'DELETE',
      path: '/v1/css/api/v1/objects/{organization}/{objectType}/{objectID}',
      operationId: 'deleteObject',
      handler: () => import('./delete-object.ts'),
      summary: 'Delete an object and its data',
      description: writers,
      request: { path: objectPath },
      responses: { 204: { description: 'deleted' }, ...errors(400, 401, 403, 404, 503) },
    },
    {
      method: 'GET',
      path: '/v1/css/api/v1/objects/{organization}/{objectType}/{objectID}/data',
      operationId: 'getObjectData',
      handler: () => import('./get-object-data.ts'),
      summary: "An object's data: 302 to a URL signed for it",
      description: readers,
      request: { path: objectPath },
      responses: { 302: { description: 'the data is at `Location`' }, ...errors(400, 401, 404) },
    },
    {
      method: 'PUT',
      path: '/v1/css/api/v1/objects/{organization}/{objectType}/{objectID}/data',
      operationId: 'putObjectData',
      handler: () => import('./put-object-data.ts'),
      summary: "Store a small object's data (at most 4 MB) through the function",
      description: `${writers} The object's metadata must exist.`,
      request: { path: objectPath, rawBody: rawData },
      responses: { 204: { description: 'stored' }, ...errors(400, 401, 403, 404, 413, 503) },
    },
    {
      method: 'GET',
      path: '/v1/css/api/v1/objects/{organization}/{objectType}/{objectID}/upload',
      operationId: 'getUploadUrl',
      handler: () => import('./get-upload-url.ts'),
      summary: "A URL to PUT an object's data to directly (our extension, for large files)",
      description: writers,
      request: { path: objectPath },
      responses: {
        200: {
          description: 'the URL',
          schema: z.object({ url: z.string(), method: z.literal('PUT'), expiresSeconds: z.number().int() }),
        },
        ...errors(400, 401, 403),
      },
    },
  ],
});
