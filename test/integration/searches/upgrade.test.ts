import {
  CreateTableCommand,
  type CreateTableCommandInput,
  DeleteTableCommand,
  DescribeTableCommand,
} from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { documentClient, dynamoClient, tableName } from '#tables/client';
import { createTableIfMissing } from '#tables/create-table';
import { nodeKeys } from '#tables/keys/node';
import { putNodeAgreement } from '#tables/node/agreement-records';
import { searchNodes } from '#tables/node/search';
import { backfillNodeSearch } from '#tables/node/search-backfill';
import { createNode, createOrg } from '#test/support/identities';
import { useTestTable } from '#test/support/table';
import definition from '../../../tables/table-definition.json' with { type: 'json' };

useTestTable();

/** A table and nodes from before the searches' index: the launcher brings both up to date. */
describe('upgrading a table from before gsi2', () => {
  it('adds the missing index to an existing table', async () => {
    const name = `${tableName()}-old`;
    const { TimeToLiveSpecification: _ttl, StreamSpecification: _stream, ...table } = definition;
    // The definition as it was before gsi2 and the stream (a JSON import types its enums as plain strings).
    const input = {
      ...table,
      TableName: name,
      AttributeDefinitions: definition.AttributeDefinitions.filter(
        (a) => !a.AttributeName.startsWith('gsi2'),
      ),
      GlobalSecondaryIndexes: definition.GlobalSecondaryIndexes.filter((i) => i.IndexName === 'gsi1'),
    } as unknown as CreateTableCommandInput;
    await dynamoClient.send(new CreateTableCommand(input));
    try {
      expect(await createTableIfMissing(name)).toBe('exists');
      const { Table } = await dynamoClient.send(new DescribeTableCommand({ TableName: name }));
      expect(Table?.GlobalSecondaryIndexes?.map((i) => i.IndexName).sort()).toEqual(['gsi1', 'gsi2']);
      expect(Table?.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: 'NEW_IMAGE' });
    } finally {
      await dynamoClient.send(new DeleteTableCommand({ TableName: name }));
    }
    // The deadline only bounds a failure: DynamoDB Local builds an index in a background job that
    // waits for its one SQLite lock, behind every other file's calls (over 30 s under the suite).
  }, 180_000);

  it('gives old nodes their index keys and agreement summary, once', async () => {
    await createOrg('upg');
    await createNode('upg', 'old', 'upg/admin');
    await putNodeAgreement(
      {
        org: 'upg',
        node: 'old',
        agreementId: 'ag1',
        owner: 'upg/admin',
        services: [],
        agrService: { orgid: 'svc', pattern: '', url: 'svc/web' },
        state: 'signed',
        now: '2026-01-01T00:00:00.000Z',
        stamp: { lastUpdated: new Date().toISOString() },
        byItsNode: false,
      },
      0,
    );
    // As an older version stored it: no gsi2 keys and no summary; registered.
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: nodeKeys.record('upg', 'old'),
        UpdateExpression:
          'REMOVE gsi2pk, gsi2sk, agreementServices SET publicKey = :pk, lastHeartbeat = :now',
        ExpressionAttributeValues: { ':pk': 'key', ':now': new Date().toISOString() },
      }),
    );
    expect((await searchNodes('upg', '', { keep: () => true })).nodes).toEqual([]);
    expect(await backfillNodeSearch()).toBeGreaterThanOrEqual(1);
    const [found] = (await searchNodes('upg', '', { keep: () => true })).nodes;
    expect(found).toMatchObject({ org: 'upg', id: 'old', publicKey: 'key' });
    expect(found?.agreementServices).toEqual({
      ag1: { url: 'svc/web', state: 'signed', lastUpdated: '2026-01-01T00:00:00.000Z' },
    });
    expect(await backfillNodeSearch()).toBe(0);
  });
});
