import * as z from 'zod';
import { authorize } from '#lib/auth/access';
import { emptyList } from '#lib/http/errors';
import { endpoint } from '#lib/http/endpoint';
import { json } from '#lib/http/responses';
import { orgPath } from '#lib/ids';
import { getOrg, ORG_ATTRIBUTES, orgView } from '#tables/org-records';
import { badInput } from '#lib/http/errors';

/** GET /v1/orgs/{organization}[?attribute=]: any identity of the org, hub admins, root. */
export const handler = endpoint({
  path: orgPath,
  query: z.object({ attribute: z.string().optional() }),
  authorize: ({ caller, path }) => authorize(caller, { type: 'org', org: path.organization }, 'READ'),
  async handle({ path, query }) {
    const org = await getOrg(path.organization);
    if (!org) throw emptyList({ orgs: {}, lastIndex: 0 });
    const view = orgView(org);
    if (query.attribute === undefined) return json(200, { orgs: { [org.org]: view }, lastIndex: 0 });
    if (!(ORG_ATTRIBUTES as readonly string[]).includes(query.attribute)) {
      throw badInput(`Org attribute name '${query.attribute}' is not an attribute of the org resource.`);
    }
    const value = view[query.attribute as keyof typeof view];
    return json(200, { attribute: query.attribute, value: typeof value === 'string' ? value : JSON.stringify(value) });
  },
});
