import { type Caller, roleOf } from '#lib/auth/caller';
import { accessDenied } from '#lib/http/errors';
import type { SecretName, SecretTree } from '#lib/secrets/names';

/**
 * Who may do what with an org's secrets directly: upstream's Vault ACLs for users (the README's
 * "Secrets" table). Root, hub admins, nodes, agbots and other orgs' users have no direct access;
 * an agbot reads a value only to deliver a binding (delivery.ts).
 */
type SecretAction = 'list' | 'read' | 'write' | 'delete';

/** The user's rights on one secret or one tree of `org` (the docs/exchange-catalog.md#secret-permissions matrix). */
function userMay(
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

/** Throws 403 unless the caller may `action` the secret or tree directly. */
export function authorizeSecret(
  caller: Caller,
  org: string,
  action: SecretAction,
  target: SecretName | SecretTree,
): void {
  const name = 'name' in target ? target.name : undefined;
  if (!userMay(caller, org, action, target)) throw denied(caller, action, org, name);
}
