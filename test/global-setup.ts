import type { TestProject } from 'vitest/node';
import { type DynamoDbLocal, startDynamoDbLocal } from '../scripts/local/dynamodb-local.ts';
import { freePort } from '../scripts/local/ports.ts';

/**
 * One in-memory DynamoDB Local for the whole run; every test file creates its own table in it.
 * The integration and e2e projects both name this file as their global setup, and Vitest runs it
 * once per project (in its own main process), so the instance is kept on `globalThis` and counted:
 * the first project starts it, the last one to finish stops it.
 */
interface SharedDynamo {
  users: number;
  started: Promise<DynamoDbLocal>;
}
const KEY = Symbol.for('open-exchange.test.dynamodb-local');
const shared = globalThis as { [KEY]?: SharedDynamo };

export async function setup(project: TestProject): Promise<void> {
  shared[KEY] ??= {
    users: 0,
    started: freePort().then((port) => startDynamoDbLocal({ port, heapMb: 2048 })),
  };
  shared[KEY].users += 1;
  project.provide('dynamoEndpoint', (await shared[KEY].started).endpoint);
}

export async function teardown(): Promise<void> {
  const dynamo = shared[KEY];
  if (!dynamo) return;
  dynamo.users -= 1;
  if (dynamo.users > 0) return;
  delete shared[KEY];
  await (await dynamo.started).stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}
