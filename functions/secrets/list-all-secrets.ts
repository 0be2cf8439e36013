import { endpoint } from '#functions/endpoint';
import { isOrgAdmin } from '#lib/auth/caller';
import { parseSecretName } from '#lib/secrets/names';
import { listSecrets } from '#tables/secret/records';
import { secretsRoutes } from './routes.ts';
import { authorizeSecret } from './shared/access.ts';
import { listResponse } from './shared/list-view.ts';

/**
 * GET /v1/orgs/{organization}/allsecrets: every name the caller may list, relative to the org.
 * Trees it may not list are skipped silently: plain users see no `user/` tree (not even their
 * own), org admins see every name.
 */
export const handler = endpoint(secretsRoutes.operations.listAllSecrets, {
  authorize: ({ caller, path }) => authorizeSecret(caller, path.organization, 'list', { kind: 'org' }),
  async handle({ caller, path, query }) {
    const org = path.organization;
    const entries = (await listSecrets(org)).filter((entry) => {
      const name = parseSecretName(entry.name);
      if ('error' in name) return false;
      if (name.kind === 'org' || name.kind === 'orgNode') return true;
      return isOrgAdmin(caller);
    });
    return listResponse(entries, query);
  },
});
