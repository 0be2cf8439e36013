import { treeListEndpoint } from './shared/list-view.ts';
import { orgPath } from './shared/schemas.ts';

/** GET /v1/orgs/{organization}/secrets: the org's secret names, without the `user/` and `node/` trees. */
export const handler = treeListEndpoint(orgPath, () => ({ kind: 'org' }));
