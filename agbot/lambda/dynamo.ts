import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * The in-stack agbot's DynamoDB client, for the few items it reads and writes itself (its sealed
 * token, its round lease). As the Exchange's (tables/client.ts): `DYNAMODB_ENDPOINT` locally, the
 * function's region and role on AWS.
 */
const endpoint = process.env.DYNAMODB_ENDPOINT || undefined;

export const agbotDocumentClient = DynamoDBDocumentClient.from(
  new DynamoDBClient({
    ...(endpoint
      ? {
          endpoint,
          region: process.env.AWS_REGION ?? 'local',
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        }
      : {}),
    maxAttempts: 5,
  }),
  { marshallOptions: { removeUndefinedValues: true } },
);

export const exchangeTable = (): string => process.env.EXCHANGE_TABLE ?? 'exchange';
