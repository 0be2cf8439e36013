import { afterAll, inject } from 'vitest';
import { tableName } from '#tables/client';
import { dropTestTable } from '#test/support/table';

/**
 * Environment for an `npm start` launched by an e2e test: its serverless-offline runs the
 * functions the e2e project built once for the run (functions-build.ts) instead of building its
 * own, as each file's useOffline server does. A minute less per launch; the build itself is the
 * same (scripts/exchange-functions-build.ts builds as serverless-esbuild does). The first start of
 * test/e2e/npm-start.test.ts keeps building, as `npm start` does for a user.
 */
export const prebuiltFunctions = (): Record<string, string> => ({
  EXCHANGE_PREBUILT: '1',
  EXCHANGE_BUILD_DIR: inject('exchangeBuildDir'),
});

/**
 * Environment for an `npm start` launched by an e2e test about the system rather than the launcher
 * itself: the run's DynamoDB Local (test/global-setup.ts; EXCHANGE_DYNAMODB_ENDPOINT) and this
 * file's table (named by test/setup-env.ts), instead of a DynamoDB Local of its own, which costs a
 * JVM's start and its cold first thousands of calls (3–6 ms of CPU each against 0.8 ms warm). Call
 * it while the file is collected, before the hooks that stop the stack: the table is dropped after
 * them. The launcher's own DynamoDB Local stays covered by npm-start*.test.ts.
 */
export function useTheRunsDynamoDb(): Record<string, string> {
  afterAll(async () => {
    await dropTestTable().catch(() => undefined);
  });
  return { EXCHANGE_DYNAMODB_ENDPOINT: inject('dynamoEndpoint'), EXCHANGE_TABLE: tableName() };
}
