import { endpoint } from '#functions/endpoint';
import { IBM_ORG } from '#lib/auth/caller';
import { noContent } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { deleteObject } from '#tables/object/records';
import { objectsRoutes } from './routes.ts';
import { authorizeWrite, objectNotFound } from './shared/access.ts';
import { isAgentFilesType, refreshAgentFileVersions } from './shared/agent-file-versions.ts';
import { removeData } from './shared/data-calls.ts';
import { dataStore } from './shared/data-store.ts';

/** DELETE /v1/css/api/v1/objects/{organization}/{objectType}/{objectID}: org admins and root; the metadata, then the data. */
export const handler = endpoint(objectsRoutes.operations.deleteObject, {
  authorize: ({ caller, path }) => authorizeWrite(caller, path.organization),
  async handle({ path, deps }) {
    if (!(await deleteObject(path.organization, path.objectType, path.objectID))) throw objectNotFound(path);
    await removeData(dataStore(), path);
    if (path.organization === IBM_ORG && isAgentFilesType(path.objectType))
      await refreshAgentFileVersions(isoTimestamp(deps.clock));
    return noContent();
  },
});
