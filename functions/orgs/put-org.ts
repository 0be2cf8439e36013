import { endpoint } from '#functions/endpoint';
import { authorize } from '#lib/auth/access';
import { notFound } from '#lib/http/errors';
import { ok } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { replaceOrg } from '#tables/org/records';
import { orgsRoutes } from './routes.ts';
import { checkOrgLimits, orgFields } from './shared/org-body.ts';

/**
 * PUT /v1/orgs/{organization}: replaces an existing org (never creates). As upstream, the body is
 * parsed before authorization: making an org type IBM needs SET_IBM_ORG_TYPE rather than WRITE.
 */
export const handler = endpoint(orgsRoutes.operations.putOrg, {
  async handle({ caller, path, body, deps }) {
    const org = path.organization;
    authorize(caller, { type: 'org', org }, body.orgType === 'IBM' ? 'SET_IBM_ORG_TYPE' : 'WRITE');
    checkOrgLimits(body.limits, deps.config().limits.maxNodes);
    if (!(await replaceOrg(org, orgFields(body), isoTimestamp(deps.clock))))
      throw notFound(`org '${org}' not found`);
    return ok('org updated');
  },
});
