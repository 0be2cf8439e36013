import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../client.ts';
import { type Change, transactWriteWithChanges } from '../feed/changes.ts';
import { queryPages } from '../kernel/list-ceiling.ts';
import { type TransactItem, TransactionFailed } from '../kernel/transact.ts';
import { orgKeys } from '../keys/org.ts';
import { splitOwner, userKeys } from '../keys/user.ts';
import { ownerCountUpdate } from '../user/owner-counts.ts';
import { serviceKeys } from './keys.ts';

/**
 * A service (docs/exchange-catalog.md#services): `SERVICE#<org>/<id>` / `SERVICE`, listed in gsi1
 * `ORG#<org>#SERVICES` by id. Top-level `org, id, url, version, arch, public, owner` are what
 * tables/service/references.ts reads. JSON-valued fields (`matchHardware`, `requiredServices`,
 * `userInput`, `imageStore`) are kept as the JSON text upstream stores, so `?attribute=` and the
 * `requiredurl` filter see what upstream sees. A public service also has a copy in the
 * `PUBLICSERVICES` partition (the cross-org catalog). `rev` counts writes: a rewrite is
 * conditional on it, so concurrent PUT/PATCH never lose each other's changes.
 */
export interface ServiceRecord {
  org: string;
  id: string;
  url: string;
  version: string;
  arch: string;
  public: boolean;
  owner: string;
  label: string;
  description: string;
  documentation: string;
  sharable: string;
  matchHardware: string;
  requiredServices: string;
  userInput: string;
  deployment: string;
  deploymentSignature: string;
  clusterDeployment: string;
  clusterDeploymentSignature: string;
  imageStore: string;
  lastUpdated: string;
  rev: number;
}

const str = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback);

/** A stored item as a record; fields an older or seeded item lacks get upstream's defaults. */
function toServiceRecord(item: Record<string, unknown>): ServiceRecord {
  return {
    org: str(item.org),
    id: str(item.id),
    url: str(item.url),
    version: str(item.version),
    arch: str(item.arch),
    public: item.public === true,
    owner: str(item.owner),
    label: str(item.label),
    description: str(item.description),
    documentation: str(item.documentation),
    sharable: str(item.sharable, 'multiple'),
    matchHardware: str(item.matchHardware, '{}'),
    requiredServices: str(item.requiredServices, '[]'),
    userInput: str(item.userInput, '[]'),
    deployment: str(item.deployment),
    deploymentSignature: str(item.deploymentSignature),
    clusterDeployment: str(item.clusterDeployment),
    clusterDeploymentSignature: str(item.clusterDeploymentSignature),
    imageStore: str(item.imageStore, '{}'),
    lastUpdated: str(item.lastUpdated),
    rev: typeof item.rev === 'number' ? item.rev : 0,
  };
}

const serviceItem = (record: ServiceRecord) => ({
  ...serviceKeys.record(record.org, record.id),
  gsi1pk: serviceKeys.orgIndex(record.org),
  gsi1sk: record.id,
  ...record,
});

/** One GetItem (consistent: a write is seen by the next request). */
export async function getService(org: string, id: string): Promise<ServiceRecord | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: serviceKeys.record(org, id), ConsistentRead: true }),
  );
  return Item ? toServiceRecord(Item) : undefined;
}

/** A partition of services, within the list ceiling. */
async function queryAllItems(input: { index?: 'gsi1'; partition: string }): Promise<ServiceRecord[]> {
  const items = await queryPages(
    {
      TableName: tableName(),
      IndexName: input.index,
      KeyConditionExpression: '#key = :key',
      ExpressionAttributeNames: { '#key': input.index ? 'gsi1pk' : 'pk' },
      ExpressionAttributeValues: { ':key': input.partition },
    },
    'capped',
  );
  return items.map(toServiceRecord);
}

/** An org's services, sorted by id (gsi1 `ORG#<org>#SERVICES`). */
export const listOrgServices = (org: string): Promise<ServiceRecord[]> =>
  queryAllItems({ index: 'gsi1', partition: serviceKeys.orgIndex(org) });

/** Every public service of every org, sorted by `org/id` (the `PUBLICSERVICES` partition). */
export const listPublicServices = (): Promise<ServiceRecord[]> =>
  queryAllItems({ partition: serviceKeys.publicPartition });

const put = (Item: Record<string, unknown>, ConditionExpression?: string): TransactItem => ({
  Put: { TableName: tableName(), Item, ConditionExpression },
});
const del = (Key: { pk: string; sk: string }): TransactItem => ({ Delete: { TableName: tableName(), Key } });

const ownerLinkPut = (record: { org: string; id: string; owner: string }): TransactItem => {
  const [ownerOrg, username] = splitOwner(record.owner);
  return put({
    ...userKeys.ownedService(ownerOrg, username, record.org, record.id),
    org: record.org,
    id: record.id,
  });
};

const ownerLinkDelete = (record: { org: string; id: string; owner: string }): TransactItem => {
  const [ownerOrg, username] = splitOwner(record.owner);
  return del(userKeys.ownedService(ownerOrg, username, record.org, record.id));
};

const publicCopyDelete = (org: string, id: string): TransactItem => del(serviceKeys.publicCopy(org, id));

const serviceChange = (record: ServiceRecord, operation: Change['operation']): Change => ({
  org: record.org,
  id: record.id,
  resource: 'service',
  operation,
  public: record.public,
});

type CreateResult = 'created' | 'exists' | 'over-limit' | 'no-org';

/**
 * Inserts the service, its public copy, its owner's link and count, and its `created` change row
 * in one transaction: a duplicate id, a missing org (`orgMustExist`) or an owner at `maxOwned`
 * writes nothing.
 */
export async function createService(
  record: ServiceRecord,
  options: { maxOwned: number; orgMustExist: boolean },
): Promise<CreateResult> {
  const stored = { ...record, rev: 1 };
  const items: TransactItem[] = [
    put(serviceItem(stored), 'attribute_not_exists(pk)'),
    ownerCountUpdate('SERVICE', record.owner, 1, options.maxOwned),
    ownerLinkPut(record),
  ];
  if (options.orgMustExist) {
    items.push({
      ConditionCheck: {
        TableName: tableName(),
        Key: orgKeys.record(record.org),
        ConditionExpression: 'attribute_exists(pk)',
      },
    });
  }
  if (record.public) items.push(put({ ...serviceKeys.publicCopy(record.org, record.id), ...stored }));
  try {
    await transactWriteWithChanges(items, [serviceChange(record, 'created')]);
    return 'created';
  } catch (error) {
    if (!(error instanceof TransactionFailed)) throw error;
    if (error.failed[0]) return 'exists';
    if (error.failed[1]) return 'over-limit';
    return 'no-org';
  }
}

/**
 * Replaces `current` by `next` (PUT and PATCH) if nobody wrote it since it was read (`rev`), with
 * its public copy, a changed owner's links and counts, and the change row; 'stale' when the
 * record changed or vanished meanwhile (the caller reads again).
 */
export async function rewriteService(
  current: ServiceRecord,
  next: ServiceRecord,
  operation: Change['operation'],
): Promise<'updated' | 'stale'> {
  const written = { ...next, rev: current.rev + 1 };
  const items: TransactItem[] = [
    {
      Put: {
        TableName: tableName(),
        Item: serviceItem(written),
        ConditionExpression:
          current.rev === 0 ? 'attribute_exists(pk) AND attribute_not_exists(rev)' : 'rev = :rev',
        ExpressionAttributeValues: current.rev === 0 ? undefined : { ':rev': current.rev },
      },
    },
    written.public
      ? put({ ...serviceKeys.publicCopy(written.org, written.id), ...written })
      : publicCopyDelete(written.org, written.id),
  ];
  if (written.owner !== current.owner) {
    items.push(ownerLinkDelete(current), ownerCountUpdate('SERVICE', current.owner, -1));
    items.push(ownerLinkPut(written), ownerCountUpdate('SERVICE', written.owner, 1));
  }
  try {
    await transactWriteWithChanges(items, [serviceChange(written, operation)]);
    return 'updated';
  } catch (error) {
    if (error instanceof TransactionFailed) return 'stale';
    throw error;
  }
}

/**
 * What deleting the service record does besides: its public copy, its owner's link and count. The
 * record goes only if it still exists with that owner (so the count moves once).
 */
export function serviceRecordDelete(record: { org: string; id: string; owner: string }): TransactItem[] {
  return [
    {
      Delete: {
        TableName: tableName(),
        Key: serviceKeys.record(record.org, record.id),
        ConditionExpression: 'attribute_exists(pk) AND #owner = :owner',
        ExpressionAttributeNames: { '#owner': 'owner' },
        ExpressionAttributeValues: { ':owner': record.owner },
      },
    },
    publicCopyDelete(record.org, record.id),
    ownerLinkDelete(record),
    ownerCountUpdate('SERVICE', record.owner, -1),
  ];
}

export const deletedServiceChange = (record: ServiceRecord): Change => serviceChange(record, 'deleted');

/**
 * What the catalog shows a caller (docs/exchange-catalog.md#catalog-of-services): every org's services for root and
 * multi-tenant agbots (one Query per org); else its own org's, IBM's, and every public one (three
 * Queries, whatever the table holds).
 */
export async function listCatalogServices(
  scope: { allOrgs: string[] } | { orgs: string[] },
): Promise<ServiceRecord[]> {
  const orgs = 'allOrgs' in scope ? scope.allOrgs : scope.orgs;
  const lists = await Promise.all([
    ...[...new Set(orgs)].map(listOrgServices),
    ...('allOrgs' in scope ? [] : [listPublicServices()]),
  ]);
  const byId = new Map<string, ServiceRecord>();
  for (const record of lists.flat()) byId.set(`${record.org}/${record.id}`, record);
  return [...byId.values()];
}
