import { endpoint } from '#functions/endpoint';
import { authorize } from '#lib/auth/access';
import { accessDenied, notFound } from '#lib/http/errors';
import { noContent } from '#lib/http/responses';
import { deleteOrgCascade } from '#tables/cascade';
import { getOrg } from '#tables/org/records';
import { orgsRoutes } from './routes.ts';

/** DELETE /v1/orgs/{organization}: root and hub admins delete an org and everything in it; never `root`. */
export const handler = endpoint(orgsRoutes.operations.deleteOrg, {
  authorize: ({ caller, path }) => authorize(caller, { type: 'org', org: path.organization }, 'DELETE_ORG'),
  async handle({ path }) {
    const org = path.organization;
    if (org === 'root') throw accessDenied('Cannot delete the exchange root org');
    if (!(await getOrg(org))) throw notFound(`org '${org}' not found`);
    await deleteOrgCascade(org);
    return noContent();
  },
});
