import { mayManageMultiTenant, mayServe } from '#functions/agbots/shared/entitlement';
import { type Caller, IBM_ORG } from '#lib/auth/caller';
import { accessDenied, badInput } from '#lib/http/errors';
import type { AgbotRecord } from '#tables/agbot/records';
import { getDeploymentPolicy } from '#tables/deployment-policy/records';
import { getPattern } from '#tables/pattern/records';

/** What a POST of a served pattern or policy declares. */
interface ServeDeclaration {
  kind: 'pattern' | 'deployment policy';
  org: string;
  name: string;
  nodeOrg: string;
}

const exists = (d: ServeDeclaration): Promise<unknown> =>
  d.kind === 'pattern' ? getPattern(d.org, d.name) : getDeploymentPolicy(d.org, d.name);

/**
 * Throws unless the declaration stays inside what the agbot is entitled to serve (README
 * "Secrets"): an agbot of an org serves that org's patterns and policies to that org's nodes;
 * only multi-tenant agbots (org IBM) serve other orgs, and only root, hub admins or the
 * multi-tenant agbot itself declare what one serves. A named pattern or policy must exist.
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
  if (!(await mayServe(agbot, declared.org, declared.nodeOrg)))
    throw accessDenied(
      agbot.org === IBM_ORG
        ? `Access denied: multi-tenant agbot '${agbotId}' is not owned by root or a hub admin, so it serves nothing`
        : `Access denied: agbot '${agbotId}' may serve only ${declared.kind}s of org '${agbot.org}' to nodes of that org; only multi-tenant agbots (org ${IBM_ORG}) serve other orgs`,
    );
  if (declared.name !== '*' && !(await exists(declared)))
    throw badInput(`${declared.kind} '${declared.org}/${declared.name}' does not exist`);
}
