import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { expect } from 'vitest';
import { documentClient, dynamoClient, tableName } from '#tables/client';
import { identityKeys } from '#tables/identity/keys';
import { nodeEntry, ownedEntry, userEntry } from '#tables/identity/records';
import { agbotKeys } from '#tables/keys/agbot';
import { nodeKeys } from '#tables/keys/node';
import { userKeys } from '#tables/keys/user';

export type Auth = { user: string; secret: string };

const raw = async (key: { pk: string; sk: string }) =>
  (await documentClient.send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true })))
    .Item;

export const principalItem = (org: string, id: string) => raw(identityKeys.principal(org, id));

/**
 * Asserts that the principal item of `org/id` says exactly what its records say: an entry per kind
 * whose record exists, equal to what that record yields, and no item at all when none exists.
 */
export async function expectPrincipalMatches(org: string, id: string): Promise<void> {
  const [node, agbot, user, item] = await Promise.all([
    raw(nodeKeys.record(org, id)),
    raw(agbotKeys.record(org, id)),
    raw(userKeys.record(org, id)),
    principalItem(org, id),
  ]);
  const expected: Record<string, unknown> = {};
  if (node) expected.node = nodeEntry(node as { tokenHash?: string; owner: string; publicKey?: string });
  if (agbot) expected.agbot = ownedEntry(agbot as { tokenHash?: string; owner: string });
  if (user) expected.user = userEntry(user);
  if (!node && !agbot && !user) {
    expect(item, `principal item of ${org}/${id}`).toBeUndefined();
    return;
  }
  const { pk: _pk, sk: _sk, ...entries } = item ?? {};
  expect(entries, `principal item of ${org}/${id}`).toEqual(expected);
}

/** Deletes the principal item (a table from before principal items). */
export const deletePrincipalItem = (org: string, id: string) =>
  documentClient.send(new DeleteCommand({ TableName: tableName(), Key: identityKeys.principal(org, id) }));

/** Overwrites one entry's secret hash (a principal item that disagrees with its record). */
export const corruptPrincipal = (org: string, id: string, kind: string, secretHash: string) =>
  documentClient.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: identityKeys.principal(org, id),
      UpdateExpression: 'SET #kind.secretHash = :hash',
      ExpressionAttributeNames: { '#kind': kind },
      ExpressionAttributeValues: { ':hash': secretHash },
    }),
  );

/** The DynamoDB commands sent while `run` runs, by name (GetCommand, BatchGetItemCommand…). */
export async function commandsOf(run: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = [];
  const name = `recordCommands-${Math.random()}`;
  dynamoClient.middlewareStack.add(
    (next, context) => (args) => {
      sent.push(String(context.commandName));
      return next(args);
    },
    { step: 'initialize', name },
  );
  try {
    await run();
  } finally {
    dynamoClient.middlewareStack.remove(name);
  }
  return sent;
}
