import {
  CreateTableCommand,
  type CreateTableCommandInput,
  DescribeTableCommand,
  type GlobalSecondaryIndexUpdate,
  ResourceNotFoundException,
  type StreamSpecification as StreamSpecificationInput,
  UpdateTableCommand,
  type UpdateTableCommandInput,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { dynamoClient } from './client.ts';
import definition from './table-definition.json' with { type: 'json' };

/**
 * Creates the table from `table-definition.json` (the same file serverless.yml reads) unless it
 * exists. Used by the local launcher and the tests; on AWS, CloudFormation creates it. With
 * `stream: false` (tests that run no agbot in the stack) the table has no stream: DynamoDB Local
 * keeps every stream record, which slows heavy writers.
 */
export async function createTableIfMissing(
  name: string,
  options: { stream?: boolean } = {},
): Promise<'created' | 'exists'> {
  const stream = options.stream ?? true;
  try {
    const { Table } = await dynamoClient.send(new DescribeTableCommand({ TableName: name }));
    await addMissingIndexes(name, new Set((Table?.GlobalSecondaryIndexes ?? []).map((i) => i.IndexName)));
    if (stream && !Table?.StreamSpecification?.StreamEnabled) await enableStream(name);
    return 'exists';
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  const { TimeToLiveSpecification, StreamSpecification, ...table } = definition;
  await dynamoClient.send(
    new CreateTableCommand({
      ...(table as Omit<CreateTableCommandInput, 'TableName'>),
      TableName: name,
      ...(stream
        ? { StreamSpecification: { StreamEnabled: true, ...StreamSpecification } as StreamSpecificationInput }
        : {}),
    }),
  );
  await dynamoClient.send(new UpdateTimeToLiveCommand({ TableName: name, TimeToLiveSpecification }));
  return 'created';
}

/**
 * The table's stream (new images), which starts the in-stack agbot's rounds (docs/agbot.md, "In
 * the stack"): a table made before it had none. CloudFormation's table takes only the view type.
 */
async function enableStream(name: string): Promise<void> {
  await dynamoClient.send(
    new UpdateTableCommand({
      TableName: name,
      StreamSpecification: {
        StreamEnabled: true,
        ...definition.StreamSpecification,
      } as StreamSpecificationInput,
    }),
  );
}

/**
 * A table made by an earlier version lacks the indexes added since (gsi2, the node searches):
 * add them, and wait until they are active. Their items are filled by the writes that follow and
 * by tables/node/search-backfill.ts for the nodes already there.
 */
async function addMissingIndexes(name: string, present: Set<string | undefined>): Promise<void> {
  for (const index of definition.GlobalSecondaryIndexes) {
    if (present.has(index.IndexName)) continue;
    const keyNames = new Set(index.KeySchema.map((k) => k.AttributeName));
    await dynamoClient.send(
      new UpdateTableCommand({
        TableName: name,
        AttributeDefinitions: definition.AttributeDefinitions.filter((a) => keyNames.has(a.AttributeName)),
        GlobalSecondaryIndexUpdates: [{ Create: index as GlobalSecondaryIndexUpdate['Create'] }],
      } as UpdateTableCommandInput),
    );
    for (let attempt = 0; attempt < 120; attempt++) {
      const { Table } = await dynamoClient.send(new DescribeTableCommand({ TableName: name }));
      const status = Table?.GlobalSecondaryIndexes?.find((i) => i.IndexName === index.IndexName)?.IndexStatus;
      if (status === 'ACTIVE') break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}
