import { type FormattedItem, PutTransaction, QueryCommand } from 'dynamodb-toolbox';
import type { TakenOutcome } from '#lib/auth/identity-taken';
import { tableName } from '../client.ts';
import { changingIdentity } from '../identity/principals.ts';
import { principalClaim, principalSet, takenOutcome, userEntry } from '../identity/records.ts';
import { maxPagesFor, withinCeiling } from '../kernel/list-ceiling.ts';
import { type TransactItem, TransactionFailed, transactWrite } from '../kernel/transact.ts';
import { orgKeys } from '../keys/org.ts';
import { userKeys } from '../keys/user.ts';
import { orgCounterUpdate } from '../org/stats.ts';
import { ExchangeTable } from '../table.ts';
import { UserEntity, userRepository } from './entity.ts';

export type UserRecord = FormattedItem<typeof UserEntity>;

/** What the users endpoints write; `passwordHash` undefined = no password (cannot log in). */
export interface UserFields {
  passwordHash: string | undefined;
  admin: boolean;
  hubAdmin: boolean;
  email: string;
  updatedBy: string;
}

export const isRootUser = (org: string, username: string): boolean => org === 'root' && username === 'root';

/** Counted by the org's `adminUsers` counter (what a hub admin's status shows). */
const isAdminish = (user: { admin: boolean; hubAdmin: boolean }): number =>
  user.admin || user.hubAdmin ? 1 : 0;

export async function getUser(org: string, username: string): Promise<UserRecord | undefined> {
  const { Item } = await userRepository.get({ org, username });
  return Item;
}

/** An org's users sorted by username (gsi1 `ORG#<org>#USERS`), within the list ceiling. */
export async function listUsers(org: string): Promise<UserRecord[]> {
  const { Items = [] } = await ExchangeTable.build(QueryCommand)
    .entities(UserEntity)
    .query({ index: 'gsi1', partition: userKeys.orgIndex(org) })
    .options({ maxPages: maxPagesFor('capped') })
    .send();
  return withinCeiling(Items, 'capped');
}

const putUser = (org: string, username: string, fields: UserFields, now: string) =>
  UserEntity.build(PutTransaction).item({ org, username, ...fields, lastUpdated: now });

/** The user's entry in its principal item, written with every put of the record. */
const principalOfUser = (org: string, username: string, fields: UserFields): TransactItem =>
  principalSet(org, username, 'user', userEntry(fields));

/**
 * Creates the user with the org's counters and its principal entry, in one transaction that also
 * checks the org exists and that `org/username` is not already a node or an agbot.
 */
export const insertUser = (
  org: string,
  username: string,
  fields: UserFields,
  now: string,
): Promise<'created' | 'exists' | 'no-org' | TakenOutcome> =>
  changingIdentity(org, username, () => writeNewUser(org, username, fields, now));

async function writeNewUser(
  org: string,
  username: string,
  fields: UserFields,
  now: string,
): Promise<'created' | 'exists' | 'no-org' | TakenOutcome> {
  const orgExists: TransactItem = {
    ConditionCheck: {
      TableName: tableName(),
      Key: orgKeys.record(org),
      ConditionExpression: 'attribute_exists(pk)',
    },
  };
  try {
    await transactWrite([
      orgExists,
      putUser(org, username, fields, now)
        .options({ condition: { attr: 'org', exists: false } })
        .params(),
      orgCounterUpdate(org, { deltas: { users: 1, adminUsers: isAdminish(fields) } }),
      principalClaim(org, username, 'user', userEntry(fields)),
    ]);
    return 'created';
  } catch (error) {
    if (!(error instanceof TransactionFailed)) throw error;
    if (error.failed[0]) return 'no-org';
    return error.failed[1] ? 'exists' : (takenOutcome(error, 3, 'user') ?? 'exists');
  }
}

const MAX_UPDATE_ATTEMPTS = 5;

/**
 * Rewrites the user with what `change` returns for its current state (undefined = the caller may
 * not touch it). The write is conditional on the admin flags read, so the org's `adminUsers`
 * counter follows flag changes exactly; a concurrent flag change makes it re-read and retry.
 */
export const updateUser = (
  org: string,
  username: string,
  change: (current: UserRecord) => Partial<UserFields> | undefined,
  now: string,
): Promise<'updated' | 'not-found'> =>
  changingIdentity(org, username, () => rewriteUser(org, username, change, now));

async function rewriteUser(
  org: string,
  username: string,
  change: (current: UserRecord) => Partial<UserFields> | undefined,
  now: string,
): Promise<'updated' | 'not-found'> {
  for (let attempt = 0; attempt < MAX_UPDATE_ATTEMPTS; attempt++) {
    const current = await getUser(org, username);
    const fields = current && change(current);
    if (!current || !fields) return 'not-found';
    const next: UserFields = {
      passwordHash: current.passwordHash,
      admin: current.admin,
      hubAdmin: current.hubAdmin,
      email: current.email,
      updatedBy: current.updatedBy,
      ...fields,
    };
    const delta = isAdminish(next) - isAdminish(current);
    try {
      await transactWrite([
        putUser(org, username, next, now)
          .options({
            condition: {
              and: [
                { attr: 'org', exists: true },
                { attr: 'admin', eq: current.admin },
                { attr: 'hubAdmin', eq: current.hubAdmin },
              ],
            },
          })
          .params(),
        principalOfUser(org, username, next),
        ...(delta ? [orgCounterUpdate(org, { deltas: { adminUsers: delta } })] : []),
      ]);
      return 'updated';
    } catch (error) {
      if (!(error instanceof TransactionFailed)) throw error;
    }
  }
  throw new Error(`user ${org}/${username}: too many concurrent updates`);
}

/** The org counter changes that deleting `user` implies. */
export const userDeletionCounts = (user: UserRecord) => ({ users: -1, adminUsers: -isAdminish(user) });
