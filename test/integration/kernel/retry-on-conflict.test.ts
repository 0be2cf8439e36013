import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { documentClient, tableName } from '#tables/client';
import { CONFLICT_RETRIES, isTransactionConflict, retryOnConflict } from '#tables/kernel/retry-on-conflict';
import { useTestTable } from '#test/support/table';

useTestTable();

const key = (name: string) => ({ pk: `KERNEL#${name}`, sk: 'COUNTER' });
const noPause = async () => {};

/** The error DynamoDB answers a transaction that collided with another one on the same item. */
const cancelledByConflict = () =>
  new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata: {},
    CancellationReasons: [{ Code: 'None' }, { Code: 'TransactionConflict' }],
  });
/** The error DynamoDB answers a plain write that met a transaction in progress on its item. */
const plainConflict = () => Object.assign(new Error('conflict'), { name: 'TransactionConflictException' });

const addOne = (name: string) =>
  documentClient.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: key(name),
      UpdateExpression: 'ADD #count :one',
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: { ':one': 1 },
    }),
  );

const countOf = async (name: string) =>
  (
    await documentClient.send(
      new GetCommand({ TableName: tableName(), Key: key(name), ConsistentRead: true }),
    )
  ).Item?.count;

describe('isTransactionConflict', () => {
  it('is true for both kinds of conflict and false for a failed condition', () => {
    expect(isTransactionConflict(cancelledByConflict())).toBe(true);
    expect(isTransactionConflict(plainConflict())).toBe(true);
    const failedCondition = new TransactionCanceledException({
      message: 'Transaction cancelled',
      $metadata: {},
      CancellationReasons: [{ Code: 'ConditionalCheckFailed' }],
    });
    expect(isTransactionConflict(failedCondition)).toBe(false);
    expect(isTransactionConflict(new Error('other'))).toBe(false);
  });
});

describe('retryOnConflict', () => {
  it('runs the write again after conflicts until it goes through, writing once', async () => {
    let runs = 0;
    await retryOnConflict(
      async () => {
        runs += 1;
        if (runs === 1) throw cancelledByConflict();
        if (runs === 2) throw plainConflict();
        return addOne('retried');
      },
      { sleep: noPause },
    );
    expect(runs).toBe(3);
    expect(await countOf('retried')).toBe(1);
  });

  it('answers what the write answered', async () => {
    expect(await retryOnConflict(async () => 'done')).toBe('done');
  });

  it('gives up after a bounded number of retries, with the conflict', async () => {
    let runs = 0;
    const always = retryOnConflict(
      async () => {
        runs += 1;
        throw cancelledByConflict();
      },
      { sleep: noPause },
    );
    await expect(always).rejects.toBeInstanceOf(TransactionCanceledException);
    expect(runs).toBe(1 + CONFLICT_RETRIES);
  });

  it('does not run a write again whose condition failed', async () => {
    await documentClient.send(new PutCommand({ TableName: tableName(), Item: key('present') }));
    let runs = 0;
    const create = retryOnConflict(async () => {
      runs += 1;
      return documentClient.send(
        new PutCommand({
          TableName: tableName(),
          Item: key('present'),
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    });
    await expect(create).rejects.toBeInstanceOf(ConditionalCheckFailedException);
    expect(runs).toBe(1);
  });
});
