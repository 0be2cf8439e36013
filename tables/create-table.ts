import {
  CreateTableCommand,
  type CreateTableCommandInput,
  DescribeTableCommand,
  ResourceNotFoundException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { dynamoClient } from './client.ts';
import definition from './table-definition.json' with { type: 'json' };

/**
 * Creates the table from `table-definition.json` (the same file serverless.yml reads) unless it
 * exists. Used by the local launcher and the tests; on AWS, CloudFormation creates it.
 */
export async function createTableIfMissing(name: string): Promise<'created' | 'exists'> {
  try {
    await dynamoClient.send(new DescribeTableCommand({ TableName: name }));
    return 'exists';
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  const { TimeToLiveSpecification, ...table } = definition;
  await dynamoClient.send(
    new CreateTableCommand({ ...(table as Omit<CreateTableCommandInput, 'TableName'>), TableName: name }),
  );
  await dynamoClient.send(new UpdateTimeToLiveCommand({ TableName: name, TimeToLiveSpecification }));
  return 'created';
}
