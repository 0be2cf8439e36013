import { authorize } from '#lib/auth/access';
import { endpoint } from '#lib/http/endpoint';
import { alreadyExists } from '#lib/http/errors';
import { ok } from '#lib/http/responses';
import { orgPath } from '#lib/ids';
import { isoTimestamp } from '#lib/time';
import { insertOrg } from '#tables/org/records';
import { checkOrgLimits, orgFields } from './org-body.ts';
import { orgBody } from './schemas.ts';

/** POST /v1/orgs/{organization}: root and hub admins create an org (and its counters). */
export const handler = endpoint({
  path: orgPath,
  body: orgBody,
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
