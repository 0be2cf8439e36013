import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll } from 'vitest';
import { bootstrap } from '#tables/bootstrap';
import { dynamoClient, tableName } from '#tables/client';
import { createTableIfMissing } from '#tables/create-table';

/**
 * Creates this file's table (and the bootstrap records) before its tests and drops it after; no
 * stream, since no agbot runs in the stack here.
 */
export function useTestTable(): void {
  beforeAll(async () => {
    await createTableIfMissing(tableName(), { stream: false });
    await bootstrap();
  });
  afterAll(async () => {
    await dropTestTable();
  });
}

/** Drops this file's table (named by test/setup-env.ts) from the run's DynamoDB Local. */
export async function dropTestTable(): Promise<void> {
  await dynamoClient.send(new DeleteTableCommand({ TableName: tableName() }));
}
