import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll } from 'vitest';
import { bootstrap } from '#tables/bootstrap';
import { dynamoClient, tableName } from '#tables/client';
import { createTableIfMissing } from '#tables/create-table';

/** Creates this file's table (and the bootstrap records) before its tests and drops it after. */
export function useTestTable(): void {
  beforeAll(async () => {
    await createTableIfMissing(tableName());
    await bootstrap();
  });
  afterAll(async () => {
    await dynamoClient.send(new DeleteTableCommand({ TableName: tableName() }));
  });
}
