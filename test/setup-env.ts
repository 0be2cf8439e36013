import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';

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
