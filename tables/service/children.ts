import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../client.ts';
import { type Change, type ChangeOperation, transactWriteWithChanges } from '../feed/changes.ts';
import { queryAll } from '../kernel/query-all.ts';
import { type TransactItem, TransactionFailed } from '../kernel/transact.ts';
import { serviceKeys } from './keys.ts';
import type { ServiceRecord } from './records.ts';

/**
 * A service's policy, keys and dockauths (docs/exchange-catalog.md#service-policy-keys-and-dockauths), in the service's partition.
 * Every write checks in its transaction that the service still exists (so a write racing a
 * DELETE leaves nothing behind that the DELETE's sweep misses) and records its change row with
 * the service's public flag.
 */
type Item = Record<string, unknown>;
type Service = Pick<ServiceRecord, 'org' | 'id' | 'public'>;

export interface ServicePolicyRecord {
  label: string;
  description: string;
  properties: unknown[];
  constraints: string[];
  lastUpdated: string;
}

export interface DockAuthRecord {
  dockAuthId: number;
  registry: string;
  username: string;
  token: string;
  lastUpdated: string;
}

const serviceExists = (service: Service): TransactItem => ({
  ConditionCheck: {
    TableName: tableName(),
    Key: serviceKeys.record(service.org, service.id),
    ConditionExpression: 'attribute_exists(pk)',
  },
});

const change = (service: Service, resource: string, operation: ChangeOperation): Change => ({
  org: service.org,
  id: service.id,
  resource,
  operation,
  public: service.public,
});

/** Runs `items` (the service check first) with one change row; false when a condition failed. */
async function writeChecked(service: Service, items: TransactItem[], row: Change): Promise<boolean> {
  try {
    await transactWriteWithChanges([serviceExists(service), ...items], [row]);
    return true;
  } catch (error) {
    if (error instanceof TransactionFailed) return false;
    throw error;
  }
}

async function getChild(key: { pk: string; sk: string }): Promise<Item | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }),
  );
  return Item;
}

const queryChildren = (service: Service, prefix: string): Promise<Item[]> =>
  queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': serviceKeys.record(service.org, service.id).pk, ':prefix': prefix },
    ConsistentRead: true,
  }) as Promise<Item[]>;

const put = (Item: Item, ConditionExpression?: string): TransactItem => ({
  Put: { TableName: tableName(), Item, ConditionExpression },
});
const deleteExisting = (Key: { pk: string; sk: string }): TransactItem => ({
  Delete: { TableName: tableName(), Key, ConditionExpression: 'attribute_exists(pk)' },
});

// Policy

export async function getServicePolicy(service: Service): Promise<ServicePolicyRecord | undefined> {
  return (await getChild(serviceKeys.policy(service.org, service.id))) as ServicePolicyRecord | undefined;
}

/** Upserts the policy; false when the service is gone. */
export const putServicePolicy = (service: Service, policy: ServicePolicyRecord): Promise<boolean> =>
  writeChecked(
    service,
    [put({ ...serviceKeys.policy(service.org, service.id), ...policy })],
    change(service, 'servicepolicies', 'created/modified'),
  );

/** False when there was no policy (or service). */
export const deleteServicePolicy = (service: Service): Promise<boolean> =>
  writeChecked(
    service,
    [deleteExisting(serviceKeys.policy(service.org, service.id))],
    change(service, 'servicepolicies', 'deleted'),
  );

// Keys

export async function getServiceKey(service: Service, keyId: string): Promise<string | undefined> {
  const item = await getChild(serviceKeys.key(service.org, service.id, keyId));
  return item ? String(item.key) : undefined;
}

/** Key ids, sorted. */
export async function listServiceKeys(service: Service): Promise<string[]> {
  return (await queryChildren(service, serviceKeys.childPrefix.key)).map((item) => String(item.keyId));
}

export const putServiceKey = (service: Service, keyId: string, key: string, now: string): Promise<boolean> =>
  writeChecked(
    service,
    [put({ ...serviceKeys.key(service.org, service.id, keyId), keyId, key, lastUpdated: now })],
    change(service, 'servicekeys', 'created/modified'),
  );

export const deleteServiceKey = (service: Service, keyId: string): Promise<boolean> =>
  writeChecked(
    service,
    [deleteExisting(serviceKeys.key(service.org, service.id, keyId))],
    change(service, 'servicekeys', 'deleted'),
  );

/** Rows per transaction when deleting all children: the check, the sequence and the change rows need room. */
const CHUNK = 90;

/** Deletes every child with `prefix`, one change row per transaction; false when there were none. */
async function deleteAllChildren(service: Service, prefix: string, resource: string): Promise<boolean> {
  const found = await queryChildren(service, prefix);
  if (found.length === 0) return false;
  for (let i = 0; i < found.length; i += CHUNK) {
    const chunk = found.slice(i, i + CHUNK).map((item) => ({
      Delete: { TableName: tableName(), Key: { pk: String(item.pk), sk: String(item.sk) } },
    }));
    if (!(await writeChecked(service, chunk, change(service, resource, 'deleted')))) return false;
  }
  return true;
}

export const deleteServiceKeys = (service: Service): Promise<boolean> =>
  deleteAllChildren(service, serviceKeys.childPrefix.key, 'servicekeys');

// Dockauths

const toDockAuth = (item: Item): DockAuthRecord => ({
  dockAuthId: Number(item.dockAuthId),
  registry: String(item.registry),
  username: String(item.username),
  token: String(item.token),
  lastUpdated: String(item.lastUpdated),
});

/** Sorted by id. */
export async function listDockAuths(service: Service): Promise<DockAuthRecord[]> {
  return (await queryChildren(service, serviceKeys.childPrefix.dockAuth)).map(toDockAuth);
}

export async function getDockAuth(service: Service, dockAuthId: number): Promise<DockAuthRecord | undefined> {
  const item = await getChild(serviceKeys.dockAuth(service.org, service.id, dockAuthId));
  return item ? toDockAuth(item) : undefined;
}

const dockAuthItem = (service: Service, auth: DockAuthRecord): Item => ({
  ...serviceKeys.dockAuth(service.org, service.id, auth.dockAuthId),
  ...auth,
});

/**
 * POST: an identical (registry, username, token) dockauth only gets a new lastUpdated ('updated');
 * else it is added under the service's next id ('added'). 'gone' when the service was deleted.
 */
export async function addDockAuth(
  service: Service,
  fields: Omit<DockAuthRecord, 'dockAuthId'>,
): Promise<{ result: 'added' | 'updated'; dockAuthId: number } | { result: 'gone' }> {
  const same = (await listDockAuths(service)).find(
    (a) => a.registry === fields.registry && a.username === fields.username && a.token === fields.token,
  );
  const dockAuthId = same?.dockAuthId ?? (await nextDockAuthId(service));
  const stored = await writeChecked(
    service,
    [put(dockAuthItem(service, { ...fields, dockAuthId }))],
    change(service, 'servicedockauths', same ? 'created/modified' : 'created'),
  );
  if (!stored) return { result: 'gone' };
  return { result: same ? 'updated' : 'added', dockAuthId };
}

async function nextDockAuthId(service: Service): Promise<number> {
  const { Attributes } = await documentClient.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: serviceKeys.dockAuthSeq(service.org, service.id),
      UpdateExpression: 'ADD #seq :one',
      ExpressionAttributeNames: { '#seq': 'seq' },
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(Attributes?.seq);
}

/** PUT: replaces an existing dockauth; false when it (or the service) does not exist. */
export const replaceDockAuth = (service: Service, auth: DockAuthRecord): Promise<boolean> =>
  writeChecked(
    service,
    [put(dockAuthItem(service, auth), 'attribute_exists(pk)')],
    change(service, 'servicedockauths', 'created/modified'),
  );

export const deleteDockAuth = (service: Service, dockAuthId: number): Promise<boolean> =>
  writeChecked(
    service,
    [deleteExisting(serviceKeys.dockAuth(service.org, service.id, dockAuthId))],
    change(service, 'servicedockauths', 'deleted'),
  );

export const deleteDockAuths = (service: Service): Promise<boolean> =>
  deleteAllChildren(service, serviceKeys.childPrefix.dockAuth, 'servicedockauths');
