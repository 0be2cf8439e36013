import { endpoint } from '#functions/endpoint';
import { IBM_ORG } from '#lib/auth/caller';
import { badInput, HttpError } from '#lib/http/errors';
import { noContent } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { putObject } from '#tables/object/records';
import { objectsRoutes } from './routes.ts';
import { authorizeWrite, readableObject } from './shared/access.ts';
import { isAgentFilesType, refreshAgentFileVersions } from './shared/agent-file-versions.ts';
import { writeData } from './shared/data-calls.ts';
import { dataStore } from './shared/data-store.ts';
import { MAX_INLINE_DATA } from './shared/schemas.ts';

/**
 * PUT /v1/css/api/v1/objects/{organization}/{objectType}/{objectID}/data: org admins and root store a
 * small object's data (a manifest) through the function, as upstream's `hzn` sends it; at most
 * 4 MB (a Lambda takes at most 6 MB). Larger data goes to the URL of GET .../upload.
 */
export const handler = endpoint(objectsRoutes.operations.putObjectData, {
  async authorize({ caller, path }) {
    authorizeWrite(caller, path.organization);
    return readableObject(caller, path);
  },
  async handle({ event, path, target, deps }) {
    const raw = typeof event.body === 'string' ? event.body : '';
    const data = Buffer.from(raw, event.isBase64Encoded ? 'base64' : 'utf8');
    if (data.length === 0) throw badInput('invalid input: the request body (the data) is required');
    if (data.length > MAX_INLINE_DATA)
      throw new HttpError(
        413,
        'invalid-input',
        `invalid input: data over ${MAX_INLINE_DATA} bytes goes to the URL of GET .../upload`,
      );
    await writeData(dataStore(), path, data);
    const lastUpdated = isoTimestamp(deps.clock);
    await putObject({ ...target, dataSize: data.length, lastUpdated });
    if (path.organization === IBM_ORG && isAgentFilesType(path.objectType))
      await refreshAgentFileVersions(lastUpdated);
    return noContent();
  },
});
