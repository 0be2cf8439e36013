import { BatchGetCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { getConfig } from '#lib/config';
import { documentClient, tableName } from './client.ts';
import { keys } from './keys.ts';
import { PrincipalCache } from './principal-cache.ts';

/** What authentication needs to know about an `org/id` that may be a node, an agbot or a user. */
export type Principal =
  | { kind: 'node'; secretHash: string; owner: string }
  | { kind: 'agbot'; secretHash: string; owner: string }
  | { kind: 'user'; secretHash: string; admin: boolean; hubAdmin: boolean };

const PROJECTION = 'pk, tokenHash, passwordHash, #owner, admin, hubAdmin';

/**
 * Looks up `org/id` as node, agbot and user and returns the one that wins upstream's priority
 * (node > agbot > user), or undefined. `previous` is what this instance last knew of it: a node
 * outranks the other kinds, so one GetItem of the node settles it while the node is still there.
 * Otherwise one BatchGetItem of the three keys.
 */
export async function loadPrincipal(
  org: string,
  id: string,
  previous?: Principal,
): Promise<Principal | undefined> {
  if (previous?.kind === 'node') {
    const { Item } = await documentClient.send(
      new GetCommand({
        TableName: tableName(),
        Key: keys.node(org, id),
        ProjectionExpression: PROJECTION,
        ExpressionAttributeNames: { '#owner': 'owner' },
      }),
    );
    if (Item)
      return { kind: 'node', secretHash: String(Item.tokenHash ?? ''), owner: String(Item.owner ?? '') };
  }
  const nodeKey = keys.node(org, id);
  const agbotKey = keys.agbot(org, id);
  const userKey = keys.user(org, id);
  const wanted = [nodeKey, agbotKey, userKey];
  const found = new Map<string, Record<string, unknown>>();
  let request: Record<string, { pk: string; sk: string }[]> | undefined = { [tableName()]: wanted };
  for (let attempt = 0; request && attempt < 5; attempt++) {
    const table = tableName();
    const result = await documentClient.send(
      new BatchGetCommand({
        RequestItems: {
          [table]: {
            Keys: request[table] ?? [],
            ProjectionExpression: PROJECTION,
            ExpressionAttributeNames: { '#owner': 'owner' },
          },
        },
      }),
    );
    for (const item of result.Responses?.[table] ?? []) found.set(String(item.pk), item);
    const unprocessed = result.UnprocessedKeys?.[table]?.Keys as { pk: string; sk: string }[] | undefined;
    request = unprocessed?.length ? { [table]: unprocessed } : undefined;
    if (request) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt));
  }
  const node = found.get(nodeKey.pk);
  if (node)
    return { kind: 'node', secretHash: String(node.tokenHash ?? ''), owner: String(node.owner ?? '') };
  const agbot = found.get(agbotKey.pk);
  if (agbot)
    return { kind: 'agbot', secretHash: String(agbot.tokenHash ?? ''), owner: String(agbot.owner ?? '') };
  const user = found.get(userKey.pk);
  if (user) {
    return {
      kind: 'user',
      secretHash: String(user.passwordHash ?? ''),
      admin: user.admin === true,
      hubAdmin: user.hubAdmin === true,
    };
  }
  return undefined;
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
