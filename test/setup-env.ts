import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { useHashCostForTests } from '#lib/auth/secrets';

/**
 * Runs in each integration and e2e test file's process before its imports: points the data layer
 * at the run's DynamoDB Local and gives the file a table of its own, so files never see each
 * other's data. (Unit and agent files have no DynamoDB; see vitest.config.ts.)
 */
process.env.DYNAMODB_ENDPOINT = inject('dynamoEndpoint');
process.env.AWS_REGION = 'local';
process.env.EXCHANGE_TABLE = `test-${randomBytes(6).toString('hex')}`;
process.env.EXCHANGE_ROOT_PW ??= 'root-test-password';
// DynamoDB Local under the whole suite's load answers some calls after more than the 4 s that
// bounds a call on AWS (tables/client.ts); the faults tests set their own bound.
process.env.DYNAMODB_REQUEST_TIMEOUT_MS ??= '60000';
// Fixtures hash thousands of passwords and tokens in-process: at a lower scrypt cost here
// (lib/auth/secrets.ts says why); each serverless-offline started by an e2e file keeps the full cost.
useHashCostForTests(10);
