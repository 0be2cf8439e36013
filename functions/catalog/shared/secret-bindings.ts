import { type Caller, roleOf } from '#lib/auth/caller';
import { badInput } from '#lib/http/errors';
import { type BindingAuthor, bindingRefusal, boundEntries } from '#lib/secrets/binding-rule';
import { getUser, isRootUser } from '#tables/user/records';

/** The caller as a binding author: root, a user with its admin flag (hub admins are neither). */
function authorOf(caller: Caller): BindingAuthor {
  if (caller.kind === 'root') return { kind: 'root' };
  if (caller.kind !== 'user') return { kind: 'other' };
  const role = roleOf(caller);
  if (role !== 'AdminUser' && role !== 'User') return { kind: 'other' };
  return { kind: 'user', org: caller.org, id: caller.id, admin: role === 'AdminUser' };
}

/**
 * The stored owner (`org/user`) as a binding author, read now: admin rights are those the owner
 * has today, so a demoted or deleted owner binds no more than their rights allow.
 */
export async function ownerAuthor(owner: string, caller?: Caller): Promise<BindingAuthor> {
  if (caller && caller.fullId === owner) return authorOf(caller);
  const slash = owner.indexOf('/');
  if (slash < 0) return { kind: 'other' };
  const org = owner.slice(0, slash);
  const id = owner.slice(slash + 1);
  if (isRootUser(org, id)) return { kind: 'root' };
  const user = await getUser(org, id);
  if (!user || (user.hubAdmin && org === 'root')) return { kind: 'other' };
  return { kind: 'user', org, id, admin: user.admin };
}

type Bindings = Parameters<typeof boundEntries>[0];

/**
 * Throws 400 naming the first bound secret that the writer or the owner may not bind (the rule
 * in lib/secrets/binding-rule.ts). Both must be entitled: the owner is whom the agbot delivers
 * for, the writer is who chose the name.
 */
export async function checkSecretBindings(
  caller: Caller,
  owner: string,
  org: string,
  bindings: Bindings | null | undefined,
  what: string,
): Promise<void> {
  const entries = boundEntries(bindings ?? []);
  if (entries.length === 0) return;
  const authors = [authorOf(caller)];
  if (owner !== caller.fullId) authors.push(await ownerAuthor(owner));
  for (const { managerSecret } of entries) {
    for (const author of authors) {
      const reason = bindingRefusal(author, org, managerSecret);
      if (reason) {
        const who = author === authors[0] ? caller.fullId : owner;
        throw badInput(
          `${what}: body field 'secretBinding' binds secret '${managerSecret}', which '${who}' may not bind: ${reason}`,
        );
      }
    }
  }
}
