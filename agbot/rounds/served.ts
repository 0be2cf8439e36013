import type { RoundContext } from './context.ts';
import { deploymentPoliciesAnswer, servedPoliciesAnswer } from './wire.ts';

/**
 * The deployment policies this agbot serves (reference §1.3 "What the agbot serves"): its served
 * rows, with upstream's `*` expanded to every policy of that org, each with the node orgs it may
 * search. Read again when the feed shows served rows or policies changed, else kept.
 */
export async function servedPolicies(ctx: RoundContext, refresh: boolean): Promise<Map<string, string[]>> {
  const kept = ctx.memory.served;
  if (kept && !refresh) return kept.policies;
  const rows = servedPoliciesAnswer.safeParse(await ctx.exchange.servedPolicies());
  const policies = new Map<string, string[]>();
  const add = (id: string, nodeOrg: string) => {
    const orgs = policies.get(id) ?? [];
    if (!orgs.includes(nodeOrg)) orgs.push(nodeOrg);
    policies.set(id, orgs);
  };
  const wildcards = new Map<string, string[]>();
  for (const row of rows.success ? Object.values(rows.data.businessPols) : []) {
    if (row.businessPol === '*')
      wildcards.set(row.businessPolOrgid, [...(wildcards.get(row.businessPolOrgid) ?? []), row.nodeOrgid]);
    else add(`${row.businessPolOrgid}/${row.businessPol}`, row.nodeOrgid);
  }
  for (const [org, nodeOrgs] of wildcards) {
    const all = deploymentPoliciesAnswer.safeParse(await ctx.exchange.deploymentPolicies(org));
    for (const id of all.success ? Object.keys(all.data.businessPolicy) : []) {
      for (const nodeOrg of nodeOrgs) add(id, nodeOrg);
    }
  }
  ctx.memory.served = { policies, readAt: ctx.now() };
  return policies;
}
