import type { RoundContext } from './context.ts';
import {
  deploymentPoliciesAnswer,
  patternsAnswer,
  servedPatternsAnswer,
  servedPoliciesAnswer,
} from './wire.ts';

/** A served row: `name` may be upstream's `*` (every one of that org). */
interface ServedRow {
  org: string;
  name: string;
  nodeOrg: string;
}

/** `org/name` → node orgs, with `*` expanded through `listAll` (the org's ids, `org/name`). */
async function expand(
  rows: ServedRow[],
  listAll: (org: string) => Promise<string[]>,
): Promise<Map<string, string[]>> {
  const served = new Map<string, string[]>();
  const add = (id: string, nodeOrg: string) => {
    const orgs = served.get(id) ?? [];
    if (!orgs.includes(nodeOrg)) orgs.push(nodeOrg);
    served.set(id, orgs);
  };
  const wildcards = new Map<string, string[]>();
  for (const row of rows) {
    if (row.name === '*') wildcards.set(row.org, [...(wildcards.get(row.org) ?? []), row.nodeOrg]);
    else add(`${row.org}/${row.name}`, row.nodeOrg);
  }
  for (const [org, nodeOrgs] of wildcards) {
    for (const id of await listAll(org)) for (const nodeOrg of nodeOrgs) add(id, nodeOrg);
  }
  return served;
}

/**
 * The deployment policies this agbot serves (docs/protocol.md#served-policies-and-patterns): its served
 * rows, with upstream's `*` expanded to every policy of that org, each with the node orgs it may
 * search. Read again when the feed shows served rows or policies changed, else kept.
 */
export async function servedPolicies(ctx: RoundContext, refresh: boolean): Promise<Map<string, string[]>> {
  const kept = ctx.memory.served;
  if (kept && !refresh) return kept.policies;
  const rows = servedPoliciesAnswer.safeParse(await ctx.exchange.servedPolicies());
  const policies = await expand(
    Object.values(rows.success ? rows.data.businessPols : {}).map((r) => ({
      org: r.businessPolOrgid,
      name: r.businessPol,
      nodeOrg: r.nodeOrgid,
    })),
    async (org) => {
      const all = deploymentPoliciesAnswer.safeParse(await ctx.exchange.deploymentPolicies(org));
      return all.success ? Object.keys(all.data.businessPolicy) : [];
    },
  );
  ctx.memory.served = { policies, readAt: ctx.now() };
  return policies;
}

/**
 * The deployment patterns this agbot serves (docs/protocol.md#searching-for-candidates): its served-pattern rows, `*` expanded to
 * every pattern of that org, each with the node orgs it may search. Kept like the policies.
 */
export async function servedPatterns(ctx: RoundContext, refresh: boolean): Promise<Map<string, string[]>> {
  const kept = ctx.memory.servedPatterns;
  if (kept && !refresh) return kept.patterns;
  const rows = servedPatternsAnswer.safeParse(await ctx.exchange.servedPatterns());
  const patterns = await expand(
    Object.values(rows.success ? rows.data.patterns : {}).map((r) => ({
      org: r.patternOrgid,
      name: r.pattern,
      nodeOrg: r.nodeOrgid,
    })),
    async (org) => {
      const all = patternsAnswer.safeParse(await ctx.exchange.patterns(org));
      return all.success ? Object.keys(all.data.patterns) : [];
    },
  );
  ctx.memory.servedPatterns = { patterns, readAt: ctx.now() };
  return patterns;
}
