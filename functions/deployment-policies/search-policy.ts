import { endpoint } from '#functions/endpoint';
import { authorizeSearch } from '#functions/node-search/access';
import { foundNode, isCandidate } from '#functions/node-search/rules';
import { searchableOrgs } from '#functions/node-search/served';
import { badInput } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import { getSearchOffset } from '#tables/agbot/search-offsets';
import { getDeploymentPolicy } from '#tables/deployment-policy/records';
import { type SearchNode, searchNodes } from '#tables/node/search';
import { deploymentPoliciesRoutes } from './routes.ts';
import { policyId } from './shared/access.ts';
import { nextPage, pagingConflict, savePaging } from './shared/search-paging.ts';

const byLastUpdated = (a: SearchNode, b: SearchNode) =>
  a.lastUpdated.localeCompare(b.lastUpdated) || `${a.org}/${a.id}`.localeCompare(`${b.org}/${b.id}`);

/**
 * POST /v1/orgs/{organization}/business/policies/{policy}/search (docs/exchange-catalog.md#policy-search): the
 * policy nodes (no pattern) of `nodeOrgids` (default the org) with a public key, a heartbeat, the
 * policy's arch, and no agreement for its service with a state, oldest `lastUpdated` first, from
 * the agbot's stored offset (or `changedSince`), `numEntries` at most. A `session` other than the
 * stored one is 409 with the stored session. Node policies are the agbot's to evaluate.
 */
export const handler = endpoint(deploymentPoliciesRoutes.operations.postBusinessPolicySearch, {
  authorize: ({ caller, path }) => authorizeSearch(caller, path.organization),
  async handle({ caller, path, body }) {
    if (body.changedSince < 0 || (body.numEntries ?? 0) < 0) throw badInput('bad input');
    const policy = await getDeploymentPolicy(path.organization, path.policy);
    if (!policy) throw badInput(`invalid input: business policy '${policyId(path)}' not found`);
    const agbot = caller.kind === 'agbot' ? { org: caller.org, id: caller.id } : undefined;
    const stored = agbot && (await getSearchOffset(agbot, policy));
    const session = body.session ?? undefined;
    if (stored && session && stored.session !== session) return pagingConflict(caller.fullId, stored);
    const want = body.numEntries || undefined;
    const sameSession = stored !== undefined && stored.session === session;
    const from = sameSession
      ? stored.offset
      : !stored && body.changedSince > 0
        ? new Date(body.changedSince * 1000).toISOString()
        : undefined;
    const rule = { arch: policy.service.arch, serviceUrl: `${policy.service.org}/${policy.service.name}` };
    const orgs = await searchableOrgs(
      caller,
      'policy',
      path.organization,
      path.policy,
      body.nodeOrgids ?? [path.organization],
    );
    const pages = await Promise.all(
      [...new Set(orgs)].map((org) =>
        searchNodes(org, '', { from, want, keep: (node) => isCandidate(node, rule) }),
      ),
    );
    const rows = pages
      .flatMap((page) => page.nodes)
      .sort(byLastUpdated)
      .slice(0, want);
    const page = nextPage(rows, { want, stored: stored?.offset, sameSession });
    if (agbot) await savePaging(agbot, policy, { ...page, stored, session, want });
    const nodes = rows.map(foundNode);
    return json(nodes.length > 0 ? 201 : 404, { nodes, offsetUpdated: page.offsetUpdated });
  },
});
