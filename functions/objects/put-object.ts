import { endpoint } from '#functions/endpoint';
import { IBM_ORG } from '#lib/auth/caller';
import { badInput } from '#lib/http/errors';
import { noContent } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { putObject } from '#tables/object/records';
import { objectsRoutes } from './routes.ts';
import { authorizeWrite } from './shared/access.ts';
import { isAgentFilesType, refreshAgentFileVersions } from './shared/agent-file-versions.ts';
import { storedSize } from './shared/data-calls.ts';
import { dataStore } from './shared/data-store.ts';
import { STORE_FIELDS } from './shared/schemas.ts';

/**
 * PUT /v1/css/api/v1/objects/{organization}/{objectType}/{objectID} `{"meta": …}`: org admins and root
 * create or replace an object's metadata (204). The metadata names the same object; only org IBM
 * publishes public objects. The data already in the store (uploaded first through .../upload, or
 * kept from before) is measured, so publishing the metadata last publishes the object: an IBM
 * agent-files object with data then counts in IBM's AgentFileVersion.
 */
export const handler = endpoint(objectsRoutes.operations.putObject, {
  authorize: ({ caller, path }) => authorizeWrite(caller, path.organization),
  async handle({ path, body, deps }) {
    const { meta } = body;
    if (meta.objectID !== path.objectID || meta.objectType !== path.objectType)
      throw badInput("invalid input: meta.objectID and meta.objectType must be the object's in the path");
    if (meta.destinationOrgID && meta.destinationOrgID !== path.organization)
      throw badInput("invalid input: meta.destinationOrgID must be the path's organization");
    if (meta.public === true && path.organization !== IBM_ORG)
      throw badInput(`invalid input: only org ${IBM_ORG} publishes public objects`);
    const dataSize = meta.noData || meta.metaOnly ? undefined : await storedSize(dataStore(), path);
    const lastUpdated = isoTimestamp(deps.clock);
    const kept = Object.fromEntries(
      Object.entries(meta).filter(([k, v]) => v !== null && !(STORE_FIELDS as readonly string[]).includes(k)),
    );
    await putObject({
      org: path.organization,
      type: path.objectType,
      id: path.objectID,
      meta: kept,
      public: meta.public === true,
      ...(dataSize === undefined ? {} : { dataSize }),
      lastUpdated,
    });
    if (path.organization === IBM_ORG && isAgentFilesType(path.objectType))
      await refreshAgentFileVersions(lastUpdated);
    return noContent();
  },
});
