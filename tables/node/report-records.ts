import { type FormattedItem, PutTransaction } from 'dynamodb-toolbox';
import { tableName } from '../client.ts';
import { type Change, transactWriteWithChanges } from '../feed/changes.ts';
import { type TransactItem, TransactionFailed } from '../kernel/transact.ts';
import { nodeKeys } from '../keys/node.ts';
import { NodeErrorsEntity, nodeErrorsRepository } from './errors.ts';
import { type NodeChanges, type NodeRecord, setNodeFields } from './records.ts';
import { NodeStatusEntity, nodeStatusRepository } from './status.ts';

/**
 * What a node reports about itself — its status, its surfaced errors, its services' config
 * state — each written with its change row (`nodestatus`, `nodeerrors`, `services_configstate`)
 * in one transaction, so a rejected write records nothing.
 */
export type NodeStatusRecord = FormattedItem<typeof NodeStatusEntity>;
export type NodeErrorsRecord = FormattedItem<typeof NodeErrorsEntity>;

const nodeExists = (org: string, id: string): TransactItem => ({
  ConditionCheck: {
    TableName: tableName(),
    Key: nodeKeys.record(org, id),
    ConditionExpression: 'attribute_exists(pk)',
  },
});

/** Runs `items` with `change`; false when any condition failed (nothing written). */
async function writeWithChange(items: TransactItem[], change: Change): Promise<boolean> {
  try {
    await transactWriteWithChanges(items, [change]);
    return true;
  } catch (error) {
    if (error instanceof TransactionFailed) return false;
    throw error;
  }
}

const deleteIfThere = (key: { pk: string; sk: string }): TransactItem => ({
  Delete: { TableName: tableName(), Key: key, ConditionExpression: 'attribute_exists(pk)' },
});

export async function getNodeStatus(org: string, id: string): Promise<NodeStatusRecord | undefined> {
  const { Item } = await nodeStatusRepository.get({ org, id }, { consistent: true });
  return Item;
}

/** Creates or replaces the node's status while the node exists; false when it does not. */
export const putNodeStatus = (status: NodeStatusRecord): Promise<boolean> =>
  writeWithChange(
    [nodeExists(status.org, status.id), NodeStatusEntity.build(PutTransaction).item(status).params()],
    {
      org: status.org,
      id: status.id,
      resource: 'nodestatus',
      operation: 'created/modified',
    },
  );

/** Deletes the node's status; false when there was none. */
export const deleteNodeStatus = (org: string, id: string): Promise<boolean> =>
  writeWithChange([deleteIfThere(nodeKeys.status(org, id))], {
    org,
    id,
    resource: 'nodestatus',
    operation: 'deleted',
  });

export async function getNodeErrors(org: string, id: string): Promise<NodeErrorsRecord | undefined> {
  const { Item } = await nodeErrorsRepository.get({ org, id }, { consistent: true });
  return Item;
}

/** Creates or replaces the node's errors while the node exists; false when it does not. */
export const putNodeErrors = (errors: NodeErrorsRecord): Promise<boolean> =>
  writeWithChange(
    [nodeExists(errors.org, errors.id), NodeErrorsEntity.build(PutTransaction).item(errors).params()],
    {
      org: errors.org,
      id: errors.id,
      resource: 'nodeerrors',
      operation: 'created/modified',
    },
  );

/** Deletes the node's errors; false when there were none. */
export const deleteNodeErrors = (org: string, id: string): Promise<boolean> =>
  writeWithChange([deleteIfThere(nodeKeys.errors(org, id))], {
    org,
    id,
    resource: 'nodeerrors',
    operation: 'deleted',
  });

/**
 * Records a services_configstate request: `changes` (new registeredServices with the node's
 * stamps) are applied only if the node still carries the `lastUpdated` read into `current`; with
 * no changes the node must merely exist. The change row is written either way, as upstream does.
 * False when the node changed meanwhile or is gone.
 */
export const recordServicesConfigState = (
  current: NodeRecord,
  changes: NodeChanges | undefined,
): Promise<boolean> =>
  writeWithChange(
    [
      changes
        ? setNodeFields(current.org, current.id, changes, current.lastUpdated)
        : nodeExists(current.org, current.id),
    ],
    { org: current.org, id: current.id, resource: 'services_configstate', operation: 'created' },
  );
