import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import type { TakenOutcome } from '#lib/auth/identity-taken';
import { PRINCIPAL_PRIORITY, type Principal, type PrincipalKind } from '#lib/auth/principal';
import { documentClient, tableName } from '../client.ts';
import type { TransactItem } from '../kernel/transact.ts';
import { identityKeys } from './keys.ts';

/**
 * The writes of principal items (`PRINCIPAL#<org>/<id>`): one map attribute per kind (`node`,
 * `agbot`, `user`), each written only by its own record's writes, so a node write never reads or
 * overwrites the user entry of the same `org/id`; the lookup applies the priority (principals.ts).
 * Every item here goes into the same transaction as the record write it mirrors.
 */

/** What a principal item stores for one kind: the Principal without its kind. */
export type PrincipalEntry<K extends PrincipalKind = PrincipalKind> = Omit<
  Extract<Principal, { kind: K }>,
  'kind'
>;

/** `user` is a DynamoDB reserved word: every expression names the kinds through these. */
const KIND_NAMES = { '#node': 'node', '#agbot': 'agbot', '#user': 'user' } as const;

/** SETs the entry of `kind` (creating the item if it is missing). */
export function principalSet<K extends PrincipalKind>(
  org: string,
  id: string,
  kind: K,
  entry: PrincipalEntry<K>,
): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: identityKeys.principal(org, id),
      UpdateExpression: `SET #${kind} = :entry`,
      ExpressionAttributeNames: { [`#${kind}`]: kind },
      ExpressionAttributeValues: { ':entry': entry },
    },
  };
}

/**
 * SETs the entry of `kind` for a record being created, only while `org/id` is no other kind's
 * identity: authentication resolves node > agbot > user, so a second kind would shadow the first
 * (a user could lock out its org admin with a node of the admin's name). In the create's own
 * transaction, so two creates of different kinds cannot both pass. On failure the reason carries
 * the item (ALL_OLD): `takenBy` names the kind already there.
 */
export function principalClaim<K extends PrincipalKind>(
  org: string,
  id: string,
  kind: K,
  entry: PrincipalEntry<K>,
): TransactItem {
  const others = PRINCIPAL_PRIORITY.filter((other) => other !== kind);
  const set = principalSet(org, id, kind, entry).Update as NonNullable<TransactItem['Update']>;
  return {
    Update: {
      ...set,
      ConditionExpression: others.map((other) => `attribute_not_exists(#${other})`).join(' AND '),
      ExpressionAttributeNames: {
        ...set.ExpressionAttributeNames,
        ...Object.fromEntries(others.map((other) => [`#${other}`, other])),
      },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/**
 * The kind (by upstream's priority) that a principal item returned by a failed `principalClaim`
 * holds besides `kind`. Raw attribute values or plain ones: only the attribute names are read.
 */
function takenBy(item: Record<string, unknown> | undefined, kind: PrincipalKind): PrincipalKind | undefined {
  return PRINCIPAL_PRIORITY.find((other) => other !== kind && item?.[other] !== undefined);
}

/**
 * The outcome of a create whose transaction failed, when its `principalClaim` (item `index`) is
 * what failed; undefined otherwise.
 */
export function takenOutcome(
  failed: { failed: boolean[]; oldItems: (Record<string, unknown> | undefined)[] },
  index: number,
  kind: PrincipalKind,
): TakenOutcome | undefined {
  const other = failed.failed[index] ? takenBy(failed.oldItems[index], kind) : undefined;
  return other && `taken-by-${other}`;
}

/** REMOVEs the entry of `kind` (the item may stay behind empty: `dropEmptyPrincipal` removes it). */
export function principalRemove(org: string, id: string, kind: PrincipalKind): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: identityKeys.principal(org, id),
      UpdateExpression: `REMOVE #${kind}`,
      ExpressionAttributeNames: { [`#${kind}`]: kind },
    },
  };
}

/**
 * Deletes the principal item if it holds no kind any more (after a record delete). A transaction
 * cannot do it (its condition would cancel the record delete when another kind remains), so this
 * runs after it; a kind written meanwhile keeps the item. An empty item left by a crash here reads
 * as "unknown" and the backfill removes it.
 */
export async function dropEmptyPrincipal(org: string, id: string): Promise<void> {
  try {
    await documentClient.send(
      new DeleteCommand({
        TableName: tableName(),
        Key: identityKeys.principal(org, id),
        ConditionExpression:
          'attribute_not_exists(#node) AND attribute_not_exists(#agbot) AND attribute_not_exists(#user)',
        ExpressionAttributeNames: { ...KIND_NAMES },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

/** The entry an agbot record yields. */
export const ownedEntry = (record: { tokenHash?: string; owner: string }): PrincipalEntry<'agbot'> => ({
  secretHash: record.tokenHash ?? '',
  owner: record.owner,
});

/**
 * The entry a node record yields: with its public key ('' when none), which a node's post to an
 * agbot's mailbox takes from authentication instead of reading the node (tables/mailbox/post.ts).
 */
export const nodeEntry = (record: {
  tokenHash?: string;
  owner: string;
  publicKey?: string;
}): PrincipalEntry<'node'> => ({ ...ownedEntry(record), publicKey: record.publicKey ?? '' });

/** The entry a user record yields (no password: an empty hash, which no secret matches). */
export const userEntry = (record: {
  passwordHash?: string;
  admin?: boolean;
  hubAdmin?: boolean;
}): PrincipalEntry<'user'> => ({
  secretHash: record.passwordHash ?? '',
  admin: record.admin === true,
  hubAdmin: record.hubAdmin === true,
});
