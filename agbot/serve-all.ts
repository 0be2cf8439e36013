/**
 * A multi-tenant agbot that serves everything (the local stack's IBM/agbot, issue 13 item 4):
 * each org gets the served rows `{<org>, "*", <org>}` for deployment policies and patterns, so
 * the Exchange's searches answer for every policy and pattern of the org, including those
 * created later. Orgs are taken from the change feed (every org's, `orgList: ["*"]`), so an org
 * created after the agbot started is served within a round, without any manual step.
 */
import type { AgbotExchange } from './exchange.ts';
import { servedPatternsAnswer, servedPoliciesAnswer } from './rounds/wire.ts';

/** Serves every policy and pattern of `org` to nodes of `org`; serving it again is a no-op (409). */
export async function serveOrg(exchange: AgbotExchange, org: string): Promise<void> {
  await exchange.servePolicy({ businessPolOrgid: org, businessPol: '*', nodeOrgid: org });
  await exchange.servePattern({ patternOrgid: org, pattern: '*', nodeOrgid: org });
}

/** The orgs whose `*` rows (both kinds) already exist. */
export async function servedOrgs(exchange: AgbotExchange): Promise<Set<string>> {
  const policies = servedPoliciesAnswer.safeParse(await exchange.servedPolicies());
  const patterns = servedPatternsAnswer.safeParse(await exchange.servedPatterns());
  const withPolicies = new Set(
    Object.values(policies.success ? policies.data.businessPols : {})
      .filter((r) => r.businessPol === '*' && r.nodeOrgid === r.businessPolOrgid)
      .map((r) => r.businessPolOrgid),
  );
  return new Set(
    Object.values(patterns.success ? patterns.data.patterns : {})
      .filter((r) => r.pattern === '*' && r.nodeOrgid === r.patternOrgid && withPolicies.has(r.patternOrgid))
      .map((r) => r.patternOrgid),
  );
}

/** Serves the orgs of `seen` not served yet; answers whether any was added. */
export async function serveNewOrgs(
  exchange: AgbotExchange,
  known: Set<string>,
  seen: Iterable<string>,
): Promise<string[]> {
  const added: string[] = [];
  for (const org of seen) {
    if (known.has(org) || org === '') continue;
    await serveOrg(exchange, org);
    known.add(org);
    added.push(org);
  }
  return added;
}
