import { endpoint } from '#functions/endpoint';
import { authorize } from '#lib/auth/access';
import { alreadyExists } from '#lib/http/errors';
import { ok } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { insertOrg } from '#tables/org/records';
import { orgsRoutes } from './routes.ts';
import { checkOrgLimits, orgFields } from './shared/org-body.ts';

/** POST /v1/orgs/{organization}: root and hub admins create an org (and its counters). */
export const handler = endpoint(orgsRoutes.operations.postOrg, {
  authorize: ({ caller, path }) => authorize(caller, { type: 'org', org: path.organization }, 'CREATE'),
  async handle({ path, body, deps }) {
    checkOrgLimits(body.limits, deps.config().limits.maxNodes);
    const org = path.organization;
    if (!(await insertOrg(org, orgFields(body), isoTimestamp(deps.clock)))) {
      throw alreadyExists(`org '${org}' already exists: an org with this id exists`);
    }
    return ok(`org '${org}' created`);
  },
});
