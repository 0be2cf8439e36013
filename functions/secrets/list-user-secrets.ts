import { secretsRoutes } from './routes.ts';
import { treeListEndpoint } from './shared/list-view.ts';

/** GET /v1/orgs/{organization}/secrets/user/{user}: the user's secrets (not its node ones), prefix removed. */
export const handler = treeListEndpoint(secretsRoutes.operations.listUserSecrets, (path) => ({
  kind: 'user',
  user: path.user,
}));
