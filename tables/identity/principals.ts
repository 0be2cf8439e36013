import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { PRINCIPAL_PRIORITY, type Principal } from '#lib/auth/principal';
import { PrincipalCache } from '#lib/auth/principal-cache';
import { getConfig } from '#lib/config';
import { documentClient, tableName } from '../client.ts';
import { identityKeys } from './keys.ts';

type Entry = Record<string, unknown>;
const isEntry = (value: unknown): value is Entry => typeof value === 'object' && value !== null;

/** The kind that wins in a principal item (node > agbot > user), or undefined when it holds none. */
function principalOf(item: Entry): Principal | undefined {
  for (const kind of PRINCIPAL_PRIORITY) {
    const entry = item[kind];
    if (!isEntry(entry)) continue;
    const secretHash = String(entry.secretHash ?? '');
    if (kind === 'user')
      return { kind, secretHash, admin: entry.admin === true, hubAdmin: entry.hubAdmin === true };
    const owner = String(entry.owner ?? '');
    // Only nodes carry their key; an entry written before it has none (the post then reads the node).
    if (kind === 'node' && typeof entry.publicKey === 'string')
      return { kind, secretHash, owner, publicKey: entry.publicKey };
    return { kind, secretHash, owner };
  }
  return undefined;
}

/**
 * Looks up `org/id` and returns the kind that wins upstream's priority (node > agbot > user), or
 * undefined: one consistent GetItem of its principal item (`PRINCIPAL#<org>/<id>`), which every
 * write of a node, agbot or user record updates in the same transaction (records.ts).
 * Consistent, so a write on this instance is seen by the very next lookup.
 */
export async function loadPrincipal(org: string, id: string): Promise<Principal | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: identityKeys.principal(org, id), ConsistentRead: true }),
  );
  return Item ? principalOf(Item) : undefined;
}

/** This instance's identities, remembered for `authCacheSeconds` (0 = not at all). */
export const principalCache = new PrincipalCache(loadPrincipal, () => getConfig().authCacheSeconds * 1000);

/**
 * Runs a write that creates, changes or deletes identity `org/id` (a user, node or agbot record),
 * then forgets it on this instance, even when the write failed (it may have happened anyway).
 */
export async function changingIdentity<T>(org: string, id: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } finally {
    principalCache.forget(org, id);
  }
}
