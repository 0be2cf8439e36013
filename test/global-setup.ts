import type { TestProject } from 'vitest/node';
import { type DynamoDbLocal, startDynamoDbLocal } from '../scripts/local/dynamodb-local.ts';
import { freePort } from '../scripts/local/ports.ts';

/** One in-memory DynamoDB Local for the whole run; every test file creates its own table in it. */
let dynamo: DynamoDbLocal | undefined;

export async function setup(project: TestProject): Promise<void> {
  dynamo = await startDynamoDbLocal({ port: await freePort() });
  project.provide('dynamoEndpoint', dynamo.endpoint);
}

export async function teardown(): Promise<void> {
  await dynamo?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}
