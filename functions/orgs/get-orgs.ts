import { endpoint } from '#functions/endpoint';
import { authorize } from '#lib/auth/access';
import { type Caller, IBM_ORG, roleOf } from '#lib/auth/caller';
import { badInput, emptyList } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import { filterPrefix, matchesAllFilters } from '#lib/like';
import { getOrg, listOrgs, type OrgRecord } from '#tables/org/records';
import { orgsRoutes } from './routes.ts';
import { orgView } from './shared/org-view.ts';

/** Root and hub admins see every org; org admins and users their own and IBM; nodes and agbots their own. */
async function visibleOrgs(caller: Caller, organization: string | undefined): Promise<OrgRecord[]> {
  const role = roleOf(caller);
  if (role === 'SuperUser' || role === 'HubAdmin') return listOrgs(filterPrefix(organization));
  const ids = new Set(role === 'AdminUser' || role === 'User' ? [caller.org, IBM_ORG] : [caller.org]);
  const found = await Promise.all([...ids].map(getOrg));
  return found.filter((org): org is OrgRecord => org !== undefined);
}

/** GET /v1/orgs: the orgs the caller may see, filtered by label, id, description (`%` = LIKE) or orgtype. */
export const handler = endpoint(orgsRoutes.operations.getOrgs, {
  authorize: ({ caller }) => authorize(caller, { type: 'org', org: caller.org }, 'READ'),
  async handle({ caller, query }) {
    // Upstream quirk kept: orgtype=IBM selects the org whose id is IBM.
    if (query.orgtype && query.orgtype !== 'IBM') throw badInput("orgType must be 'IBM' or blank");
    const keep = matchesAllFilters<OrgRecord>(
      [query.label, (org) => org.label],
      [query.organization, (org) => org.org],
      [query.description, (org) => org.description],
    );
    const orgs = (await visibleOrgs(caller, query.organization))
      .filter((org) => keep(org) && (!query.orgtype || org.org === IBM_ORG))
      .sort((a, b) => (a.org < b.org ? -1 : a.org > b.org ? 1 : 0));
    if (orgs.length === 0) throw emptyList({ orgs: {}, lastIndex: 0 });
    return json(200, { orgs: Object.fromEntries(orgs.map((org) => [org.org, orgView(org)])), lastIndex: 0 });
  },
});
