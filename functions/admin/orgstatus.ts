import type * as z from 'zod';
import { endpoint } from '#functions/endpoint';
import { authorize } from '#lib/auth/access';
import { IBM_ORG, roleOf } from '#lib/auth/caller';
import { json } from '#lib/http/responses';
import { countsOfOrgs } from '#tables/admin/status-counts';
import { listOrgCounts } from '#tables/org/stats';
import { adminRoutes } from './routes.ts';
import type { adminOrgStatus } from './shared/responses.ts';
import { OPERATING_NORMALLY } from './shared/status-figures.ts';

/**
 * GET /v1/admin/orgstatus: ORGSTATUS (root, hub admin, org admin). Nodes per org: every org for
 * root, every org as -1 for a hub admin, the caller's org and IBM for an org admin.
 */
export const handler = endpoint(adminRoutes.operations.adminOrgStatus, {
  authorize: ({ caller }) => authorize(caller, { type: 'action' }, 'ORGSTATUS'),
  async handle({ caller }) {
    const role = roleOf(caller);
    const orgs = role === 'AdminUser' ? await countsOfOrgs([caller.org, IBM_ORG]) : await listOrgCounts();
    // fromEntries defines own keys: an org named `__proto__` stays an entry, not a prototype.
    const nodes = Object.fromEntries(
      [...orgs.keys()].sort().map((org) => [org, role === 'HubAdmin' ? -1 : (orgs.get(org)?.nodes ?? 0)]),
    );
    const body: z.infer<typeof adminOrgStatus> = { msg: OPERATING_NORMALLY, nodes };
    return json(200, body);
  },
});
