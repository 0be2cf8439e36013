import { secretsRoutes } from './routes.ts';
import { treeListEndpoint } from './shared/list-view.ts';

/** GET /v1/orgs/{organization}/secrets: the org's secret names, without the `user/` and `node/` trees. */
export const handler = treeListEndpoint(secretsRoutes.operations.listSecrets, () => ({ kind: 'org' }));
