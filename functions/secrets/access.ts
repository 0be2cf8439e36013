import { type Caller, roleOf } from '#lib/auth/caller';
import { accessDenied } from '#lib/http/errors';
import type { SecretName, SecretTree } from '#lib/secrets/names';
import { listAgbotPatterns } from '#tables/agbot-pattern-records';
import { listAgbotPolicies } from '#tables/agbot-policy-records';

/**
 * Who may do what with an org's secrets: catalog reference §6.4 for users, plus agbots (our
 * addition, for delivery). Root, hub admins, nodes and other orgs' users have no access.
 */
export type SecretAction = 'list' | 'read' | 'write' | 'delete';

/** Whether agbot `caller` serves a deployment policy or pattern of `org` (multi-tenant agbots included). */
export async function agbotServesOrg(caller: Caller, org: string): Promise<boolean> {
  const [patterns, policies] = await Promise.all([
    listAgbotPatterns(caller.org, caller.id),
    listAgbotPolicies(caller.org, caller.id),
  ]);
  return patterns.some((p) => p.patternOrgid === org) || policies.some((p) => p.businessPolOrgid === org);
}

/** The user's rights on one secret or one tree of `org` (the §6.4 matrix). */
export function userMay(
  caller: Caller,
  org: string,
  action: SecretAction,
  target: SecretName | SecretTree,
): boolean {
  const role = roleOf(caller);
  if (caller.kind !== 'user' || caller.org !== org || (role !== 'AdminUser' && role !== 'User')) return false;
  const admin = role === 'AdminUser';
  if (target.kind === 'org' || target.kind === 'orgNode') return action === 'list' || admin;
  const owner = target.user === caller.id;
  if (action === 'read' || action === 'write') return owner;
  return owner || admin;
}

const denied = (caller: Caller, action: SecretAction, org: string, name?: string) =>
  accessDenied(
    `Access denied: '${caller.fullId}' cannot ${action} ${name === undefined ? 'secrets' : `secret '${name}'`} in organization '${org}'`,
  );

/** Throws 403 unless the caller may `action` the secret or tree; agbots may list and read what they serve. */
export async function authorizeSecret(
  caller: Caller,
  org: string,
  action: SecretAction,
  target: SecretName | SecretTree,
): Promise<void> {
  const name = 'name' in target ? target.name : undefined;
  if (caller.kind === 'agbot') {
    if ((action === 'list' || action === 'read') && (await agbotServesOrg(caller, org))) return;
    throw denied(caller, action, org, name);
  }
  if (!userMay(caller, org, action, target)) throw denied(caller, action, org, name);
}
