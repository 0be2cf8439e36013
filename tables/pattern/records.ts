import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../client.ts';
import { type Change, type ChangeOperation, transactWriteWithChanges } from '../feed/changes.ts';
import { type ListReach, queryPages } from '../kernel/list-ceiling.ts';
import { type TransactItem, TransactionFailed } from '../kernel/transact.ts';
import { orgKeys } from '../keys/org.ts';
import { ownerChange, ownerCountUpdate } from '../user/owner-counts.ts';
import { patternKeys } from './keys.ts';

/**
 * A deployment pattern (docs/exchange-catalog.md#patterns): `PATTERN#<org>/<name>` / `PATTERN`, listed in gsi1
 * `ORG#<org>#PATTERNS` by name. A public pattern also has a copy in `PUBLICPATTERNS` (the catalog
 * of every org). `rev` counts writes: a rewrite is conditional on it, so concurrent PUT/PATCH never
 * lose each other's changes and the owner counts move exactly once.
 */
export interface PatternRecord {
  org: string;
  name: string;
  owner: string;
  public: boolean;
  label: string;
  description: string;
  services: Record<string, unknown>[];
  userInput: Record<string, unknown>[];
  secretBinding: Record<string, unknown>[];
  agreementProtocols: Record<string, unknown>[];
  clusterNamespace: string;
  lastUpdated: string;
  rev: number;
}

/** The attributes PATCH may set, in upstream's order of precedence. */
export const PATCHABLE = [
  'agreementProtocols',
  'clusterNamespace',
  'description',
  'label',
  'public',
  'secretBinding',
  'services',
  'userInput',
] as const;
export type PatchableAttribute = (typeof PATCHABLE)[number];

const item = (record: PatternRecord) => ({
  ...patternKeys.record(record.org, record.name),
  gsi1pk: patternKeys.orgIndex(record.org),
  gsi1sk: record.name,
  ...record,
});

function toRecord(stored: Record<string, unknown>): PatternRecord {
  const { pk: _pk, sk: _sk, gsi1pk: _gpk, gsi1sk: _gsk, ...record } = stored;
  return { ...(record as unknown as PatternRecord), rev: typeof record.rev === 'number' ? record.rev : 0 };
}

const patternChange = (record: PatternRecord, operation: ChangeOperation): Change => ({
  org: record.org,
  id: record.name,
  resource: 'pattern',
  operation,
  public: record.public,
});

const publicCopy = (record: PatternRecord): TransactItem =>
  record.public
    ? {
        Put: {
          TableName: tableName(),
          Item: { ...patternKeys.publicCopy(record.org, record.name), ...record },
        },
      }
    : { Delete: { TableName: tableName(), Key: patternKeys.publicCopy(record.org, record.name) } };

/** One GetItem (consistent: a write is seen by the next request). */
export async function getPattern(org: string, name: string): Promise<PatternRecord | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: patternKeys.record(org, name), ConsistentRead: true }),
  );
  return Item && toRecord(Item);
}

async function queryAll(
  input: { index?: 'gsi1'; partition: string },
  reach: ListReach,
): Promise<PatternRecord[]> {
  const items = await queryPages(
    {
      TableName: tableName(),
      IndexName: input.index,
      KeyConditionExpression: '#key = :key',
      ExpressionAttributeNames: { '#key': input.index ? 'gsi1pk' : 'pk' },
      ExpressionAttributeValues: { ':key': input.partition },
    },
    reach,
  );
  return items.map(toRecord);
}

/** An org's patterns, by name (one gsi1 partition; within the list ceiling unless `reach` is `'all'`). */
export const listOrgPatterns = (org: string, reach: ListReach = 'capped'): Promise<PatternRecord[]> =>
  queryAll({ index: 'gsi1', partition: patternKeys.orgIndex(org) }, reach);

/** Every public pattern of every org (the `PUBLICPATTERNS` partition), within the list ceiling. */
const listPublicPatterns = (): Promise<PatternRecord[]> =>
  queryAll({ partition: patternKeys.publicPartition }, 'capped');

/**
 * What the catalog shows (docs/exchange-catalog.md#catalog-of-patterns): the given orgs' patterns (one Query each), plus every public one
 * unless `allOrgs` already covers them.
 */
export async function listCatalogPatterns(
  scope: { allOrgs: string[] } | { orgs: string[] },
): Promise<PatternRecord[]> {
  const orgs = 'allOrgs' in scope ? scope.allOrgs : scope.orgs;
  const lists = await Promise.all([
    ...[...new Set(orgs)].map((org) => listOrgPatterns(org)),
    ...('allOrgs' in scope ? [] : [listPublicPatterns()]),
  ]);
  const byId = new Map<string, PatternRecord>();
  for (const record of lists.flat()) byId.set(`${record.org}/${record.name}`, record);
  return [...byId.values()].sort((a, b) => `${a.org}/${a.name}`.localeCompare(`${b.org}/${b.name}`));
}

type CreatePatternOutcome = 'created' | 'exists' | 'over-limit' | 'no-org';

/**
 * Inserts the pattern, its public copy, its owner's count and its `created` change row in one
 * transaction: a duplicate, a missing org or an owner at `maxOwned` (0 = none) writes nothing.
 */
export async function createPattern(record: PatternRecord, maxOwned: number): Promise<CreatePatternOutcome> {
  const stored = { ...record, rev: 1 };
  try {
    await transactWriteWithChanges(
      [
        {
          Put: {
            TableName: tableName(),
            Item: item(stored),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        ownerCountUpdate('PATTERN', record.owner, 1, maxOwned),
        {
          ConditionCheck: {
            TableName: tableName(),
            Key: orgKeys.record(record.org),
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
        ...(stored.public ? [publicCopy(stored)] : []),
      ],
      [patternChange(stored, 'created')],
    );
    return 'created';
  } catch (error) {
    if (!(error instanceof TransactionFailed)) throw error;
    if (error.failed[0]) return 'exists';
    return error.failed[1] ? 'over-limit' : 'no-org';
  }
}

/**
 * Replaces `current` by `next` (PUT and PATCH) if nobody wrote it since it was read (`rev`), with
 * its public copy, the owner counts when the owner changes, and the change row; 'stale' when it
 * changed or vanished meanwhile (the caller reads it again).
 */
export async function rewritePattern(
  current: PatternRecord,
  next: PatternRecord,
  operation: ChangeOperation,
): Promise<'updated' | 'stale'> {
  const written = { ...next, rev: current.rev + 1 };
  const condition =
    current.rev === 0
      ? { ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(rev)' }
      : { ConditionExpression: 'rev = :rev', ExpressionAttributeValues: { ':rev': current.rev } };
  try {
    await transactWriteWithChanges(
      [
        { Put: { TableName: tableName(), Item: item(written), ...condition } },
        publicCopy(written),
        ...ownerChange('PATTERN', current.owner, written.owner),
      ],
      [patternChange(written, operation)],
    );
    return 'updated';
  } catch (error) {
    if (error instanceof TransactionFailed) return 'stale';
    throw error;
  }
}

/** What deleting a pattern writes: the record (only as read), its public copy, its owner's count. */
const patternDelete = (record: PatternRecord): TransactItem[] => [
  {
    Delete: {
      TableName: tableName(),
      Key: patternKeys.record(record.org, record.name),
      ConditionExpression: 'attribute_exists(pk) AND #owner = :owner',
      ExpressionAttributeNames: { '#owner': 'owner' },
      ExpressionAttributeValues: { ':owner': record.owner },
    },
  },
  { Delete: { TableName: tableName(), Key: patternKeys.publicCopy(record.org, record.name) } },
  ownerCountUpdate('PATTERN', record.owner, -1),
];

/**
 * Deletes a pattern with its change row (`recordChange` false in an org's cascade, whose feed goes
 * with the org); false when it was already gone.
 */
export async function deletePattern(
  record: PatternRecord,
  options = { recordChange: true },
): Promise<boolean> {
  try {
    await transactWriteWithChanges(
      patternDelete(record),
      options.recordChange ? [patternChange(record, 'deleted')] : [],
    );
    return true;
  } catch (error) {
    if (error instanceof TransactionFailed) return false;
    throw error;
  }
}
