import { treeListEndpoint } from './list-view.ts';
import { orgPath } from './schemas.ts';

/** GET /v1/orgs/{organization}/secrets: the org's secret names, without the `user/` and `node/` trees. */
export const handler = treeListEndpoint(orgPath, () => ({ kind: 'org' }));
