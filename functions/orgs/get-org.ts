import { endpoint } from '#functions/endpoint';
import { authorize } from '#lib/auth/access';
import { badInput, emptyList, notFound } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import { getOrg } from '#tables/org/records';
import { orgsRoutes } from './routes.ts';
import { ORG_ATTRIBUTES, orgView } from './shared/org-view.ts';

const isOrgAttribute = (name: string): name is (typeof ORG_ATTRIBUTES)[number] =>
  (ORG_ATTRIBUTES as readonly string[]).includes(name);

/** GET /v1/orgs/{organization}[?attribute=]: any identity of the org, hub admins, root. */
export const handler = endpoint(orgsRoutes.operations.getOrg, {
  authorize: ({ caller, path }) => authorize(caller, { type: 'org', org: path.organization }, 'READ'),
  async handle({ path, query }) {
    const { attribute } = query;
    if (attribute !== undefined && !isOrgAttribute(attribute)) {
      throw badInput(`Org attribute name '${attribute}' is not an attribute of the org resource.`);
    }
    const org = await getOrg(path.organization);
    if (attribute === undefined) {
      if (!org) throw emptyList({ orgs: {}, lastIndex: 0 });
      return json(200, { orgs: { [org.org]: orgView(org) }, lastIndex: 0 });
    }
    // Upstream answers a missing org with an ApiResponse here, not the empty map.
    if (!org) throw notFound(`org '${path.organization}' not found`);
    const value = orgView(org)[attribute];
    return json(200, { attribute, value: typeof value === 'string' ? value : JSON.stringify(value) });
  },
});
