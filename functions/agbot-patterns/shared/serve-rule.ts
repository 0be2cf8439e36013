import { mayManageMultiTenant, mayServe, type Served } from '#functions/agbots/shared/entitlement';
import { type Caller, IBM_ORG } from '#lib/auth/caller';
import { accessDenied } from '#lib/http/errors';
import type { AgbotRecord } from '#tables/agbot/records';
import { getPattern } from '#tables/pattern/records';

/** What a POST of a served pattern or policy declares. */
interface ServeDeclaration {
  kind: Served['kind'];
  org: string;
  name: string;
  nodeOrg: string;
}

/**
 * Whether another org's pattern named by the declaration is public: undefined for `*` or a
 * pattern still to come (declaring one is allowed; the agbot serves it once it appears, and
 * search and delivery check it then). Only patterns of another org are read.
 */
async function publicFlag(agbot: AgbotRecord, d: ServeDeclaration): Promise<boolean | undefined> {
  if (d.kind !== 'pattern' || d.org === agbot.org || d.name === '*') return undefined;
  return (await getPattern(d.org, d.name))?.public;
}

/**
 * Throws unless the declaration stays inside what the agbot is entitled to serve (README
 * "Secrets", entitlement.ts): an agbot of an org serves that org's patterns and policies, and
 * other orgs' public patterns, to that org's nodes; only multi-tenant agbots (org IBM) serve
 * other orgs' nodes, and only root, hub admins or the multi-tenant agbot itself declare what one
 * serves. A named pattern or policy need not exist yet (upstream accepts it too).
 */
export async function checkServeDeclaration(
  caller: Caller,
  agbot: AgbotRecord,
  declared: ServeDeclaration,
): Promise<void> {
  const agbotId = `${agbot.org}/${agbot.id}`;
  if (agbot.org === IBM_ORG) {
    const itself = caller.kind === 'agbot' && caller.org === agbot.org && caller.id === agbot.id;
    if (!mayManageMultiTenant(caller) && !itself)
      throw accessDenied(
        `Access denied: only root and hub admins declare what multi-tenant agbot '${agbotId}' serves`,
      );
  }
  const served = { ...declared, public: await publicFlag(agbot, declared) };
  if (!(await mayServe(agbot, served))) throw accessDenied(refusal(agbot, agbotId, served));
}

function refusal(agbot: AgbotRecord, agbotId: string, served: ServeDeclaration & Served): string {
  if (agbot.org === IBM_ORG)
    return `Access denied: multi-tenant agbot '${agbotId}' is not owned by root or a hub admin, so it serves nothing`;
  if (served.nodeOrg !== agbot.org)
    return `Access denied: agbot '${agbotId}' may serve only nodes of org '${agbot.org}'; only multi-tenant agbots (org ${IBM_ORG}) serve other orgs' nodes`;
  if (served.kind === 'pattern')
    return `Access denied: pattern '${served.org}/${served.name}' is not public; agbot '${agbotId}' may serve only patterns of org '${agbot.org}' and public patterns of other orgs`;
  return `Access denied: agbot '${agbotId}' may serve only deployment policies of org '${agbot.org}'; only multi-tenant agbots (org ${IBM_ORG}) serve other orgs`;
}
