import { treeListEndpoint } from './shared/list-view.ts';
import { userTreePath } from './shared/schemas.ts';

/** GET /v1/orgs/{organization}/secrets/user/{user}: the user's secrets (not its node ones), prefix removed. */
export const handler = treeListEndpoint(userTreePath, (path) => ({ kind: 'user', user: path.user }));
