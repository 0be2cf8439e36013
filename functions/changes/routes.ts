import { orgPath } from '#lib/ids';
import { errors } from '#lib/openapi/common';
import { routeList } from '#lib/openapi/route';
import { changesResponse, maxChangeIdResponse } from './responses.ts';
import { changesBody } from './schemas.ts';

/** The change feed (docs/exchange.md#change-feed; tables/README.md "The change feed"). */
export const changesRoutes = routeList({
  folder: 'changes',
  mounts: ['/v1/orgs/{organization}/changes', '/v1/changes/maxchangeid'],
  tag: 'changes',
  description: 'What changed in the Exchange, for agents and agbots to sync',
  components: { ResourceChangesRespObject: changesResponse, MaxChangeIdResponse: maxChangeIdResponse },
  requests: { ResourceChangesRequest: changesBody },
  routes: [
    {
      method: 'POST',
      path: '/v1/orgs/{organization}/changes',
      operationId: 'postChanges',
      handler: () => import('./post-changes.ts'),
      summary: 'Changes since a change id (or time), grouped per resource',
      description:
        'Rows with `changeId` ≥ the one given (else updated since `lastUpdated` − 10 s, else all kept: 4 hours), ' +
        'of the org and public resources; root and multi-tenant agbots may add `orgList` (`*`: every org). Nodes see ' +
        'org and catalog changes and changes about themselves; agbots never see node messages, node status or created ' +
        'agreements. At most `maxRecords` rows (capped by `limits.maxChangeRecords`, 10,000). A node or agbot caller ' +
        'is heartbeated (404 when its record is missing).',
      request: { path: orgPath, body: changesBody },
      responses: {
        201: { description: 'the changes', schema: changesResponse },
        ...errors(400, 401, 403, 404),
      },
    },
    {
      method: 'GET',
      path: '/v1/changes/maxchangeid',
      operationId: 'getMaxChangeId',
      handler: () => import('./get-max-change-id.ts'),
      summary: 'The newest change id',
      description: 'Nodes, agbots, org admins and root; users and hub admins get 403.',
      responses: { 200: { description: 'the id', schema: maxChangeIdResponse }, ...errors(401, 403) },
    },
  ],
});
