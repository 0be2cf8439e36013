import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { PRINCIPAL_PRIORITY, type PrincipalKind } from '#lib/auth/principal';
import { documentClient, tableName } from '../client.ts';
import { pagesOfScan } from '../kernel/query-all.ts';
import { type TransactItem, TransactionFailed, transactWrite } from '../kernel/transact.ts';
import { agbotKeys } from '../keys/agbot.ts';
import { nodeKeys } from '../keys/node.ts';
import { userKeys } from '../keys/user.ts';
import { identityKeys } from './keys.ts';
import {
  dropEmptyPrincipal,
  nodeEntry,
  ownedEntry,
  type PrincipalEntry,
  principalRemove,
  principalSet,
  userEntry,
} from './records.ts';

/**
 * Brings every principal item in line with the user, node and agbot records: writes the entries
 * a table from before principal items lacks, corrects wrong ones, and removes entries (and empty
 * items) whose record is gone. Idempotent and safe beside live traffic: each write is a transaction
 * conditioned on the record still being as read (or still absent), so it can never put back what
 * a concurrent write changed. An admin job (a Scan), never a request path: `npm run
 * backfill-principals`, and once per table by the local launcher.
 */

type Item = Record<string, unknown>;
type Found = { org: string; id: string; kind: PrincipalKind; record: Item };

const SEGMENTS = 4;
const ATTEMPTS = 5;
const RECORD_SK: Record<string, PrincipalKind> = { NODE: 'node', AGBOT: 'agbot', USER: 'user' };
/** The record attributes an entry is made of (all compared by the write's condition). */
const SOURCE_FIELDS: Record<PrincipalKind, string[]> = {
  node: ['tokenHash', 'owner', 'publicKey'],
  agbot: ['tokenHash', 'owner'],
  user: ['passwordHash', 'admin', 'hubAdmin'],
};
const recordKey = { node: nodeKeys.record, agbot: agbotKeys.record, user: userKeys.record } as const;

interface BackfillReport {
  /** User, node and agbot records seen. */
  records: number;
  /** Entries written (missing or different). */
  written: number;
  /** Entries removed because their record is gone. */
  removed: number;
}

function entryOf(kind: PrincipalKind, record: Item): PrincipalEntry {
  if (kind === 'user')
    return userEntry(record as { passwordHash?: string; admin?: boolean; hubAdmin?: boolean });
  const owned = { tokenHash: record.tokenHash as string | undefined, owner: String(record.owner ?? '') };
  // A node's entry carries its public key (entries written before it get it here).
  return kind === 'node'
    ? nodeEntry({ ...owned, publicKey: record.publicKey as string | undefined })
    : ownedEntry(owned);
}

/** `<PREFIX>#<org>/<id>` → [org, id] (ids never hold a slash). */
function orgAndId(pk: string): [string, string] {
  const rest = pk.slice(pk.indexOf('#') + 1);
  const slash = rest.indexOf('/');
  return [rest.slice(0, slash), rest.slice(slash + 1)];
}

/** Every record and principal item, read with parallel segments. */
async function scanAll(): Promise<{ records: Found[]; principals: Map<string, Item> }> {
  const records: Found[] = [];
  const principals = new Map<string, Item>();
  await Promise.all(
    Array.from({ length: SEGMENTS }, async (_, segment) => {
      const pages = pagesOfScan({
        TableName: tableName(),
        Segment: segment,
        TotalSegments: SEGMENTS,
        FilterExpression: 'sk IN (:node, :agbot, :user, :principal)',
        ProjectionExpression:
          'pk, sk, tokenHash, passwordHash, #owner, admin, hubAdmin, publicKey, #node, #agbot, #user',
        ExpressionAttributeNames: {
          '#owner': 'owner',
          '#node': 'node',
          '#agbot': 'agbot',
          '#user': 'user',
        },
        ExpressionAttributeValues: {
          ':node': 'NODE',
          ':agbot': 'AGBOT',
          ':user': 'USER',
          ':principal': 'PRINCIPAL',
        },
      });
      for await (const items of pages) {
        for (const item of items) {
          const pk = String(item.pk);
          const kind = RECORD_SK[String(item.sk)];
          if (kind) {
            const [org, id] = orgAndId(pk);
            records.push({ org, id, kind, record: item });
          } else principals.set(pk, item);
        }
      }
    }),
  );
  return { records, principals };
}

/** A ConditionCheck that the record still holds the entry's fields as read. */
function recordUnchanged({ org, id, kind, record }: Found): TransactItem {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const terms = SOURCE_FIELDS[kind].map((field, i) => {
    names[`#f${i}`] = field;
    if (record[field] === undefined) return `attribute_not_exists(#f${i})`;
    values[`:f${i}`] = record[field];
    return `#f${i} = :f${i}`;
  });
  return {
    ConditionCheck: {
      TableName: tableName(),
      Key: recordKey[kind](org, id),
      ConditionExpression: ['attribute_exists(pk)', ...terms].join(' AND '),
      ExpressionAttributeNames: names,
      ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
    },
  };
}

const sameEntry = (a: unknown, b: PrincipalEntry): boolean =>
  typeof a === 'object' &&
  a !== null &&
  JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());

/** Writes the record's entry if it still is as read; re-reads and retries when it changed. True if written. */
async function writeEntry(found: Found): Promise<boolean> {
  let current: Found | undefined = found;
  for (let attempt = 0; current && attempt < ATTEMPTS; attempt++) {
    try {
      const entry = entryOf(current.kind, current.record);
      await transactWrite([
        recordUnchanged(current),
        principalSet(current.org, current.id, current.kind, entry),
      ]);
      return true;
    } catch (error) {
      if (!(error instanceof TransactionFailed)) throw error;
    }
    const { Item } = await documentClient.send(
      new GetCommand({
        TableName: tableName(),
        Key: recordKey[found.kind](found.org, found.id),
        ConsistentRead: true,
      }),
    );
    // Gone: its delete removed the entry in the same transaction.
    current = Item ? { ...found, record: Item } : undefined;
  }
  if (current) throw new Error(`backfill: ${found.kind} ${found.org}/${found.id} kept changing`);
  return false;
}

/** Removes the entry if its record is (still) absent. True if removed. */
async function removeEntry(org: string, id: string, kind: PrincipalKind): Promise<boolean> {
  try {
    await transactWrite([
      {
        ConditionCheck: {
          TableName: tableName(),
          Key: recordKey[kind](org, id),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      principalRemove(org, id, kind),
    ]);
    return true;
  } catch (error) {
    if (error instanceof TransactionFailed) return false;
    throw error;
  }
}

export async function backfillPrincipals(): Promise<BackfillReport> {
  const { records, principals } = await scanAll();
  const report: BackfillReport = { records: records.length, written: 0, removed: 0 };
  const seen = new Set<string>();
  for (const found of records) {
    const { pk } = identityKeys.principal(found.org, found.id);
    seen.add(`${pk}|${found.kind}`);
    if (sameEntry(principals.get(pk)?.[found.kind], entryOf(found.kind, found.record))) continue;
    if (await writeEntry(found)) report.written++;
  }
  for (const [pk, item] of principals) {
    const [org, id] = orgAndId(pk);
    for (const kind of PRINCIPAL_PRIORITY) {
      if (item[kind] === undefined || seen.has(`${pk}|${kind}`)) continue;
      if (await removeEntry(org, id, kind)) report.removed++;
    }
    if (PRINCIPAL_PRIORITY.every((kind) => item[kind] === undefined || !seen.has(`${pk}|${kind}`)))
      await dropEmptyPrincipal(org, id);
  }
  await documentClient.send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...identityKeys.backfilled(), at: new Date().toISOString() },
    }),
  );
  return report;
}

/** Runs the backfill unless it already ran on this table (the local launcher, at every start). */
export async function backfillPrincipalsOnce(): Promise<BackfillReport | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: identityKeys.backfilled(), ConsistentRead: true }),
  );
  return Item ? undefined : backfillPrincipals();
}
