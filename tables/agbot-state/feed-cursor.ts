import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { CursorOutcome } from '#lib/agbot-store/contract';
import { documentClient, tableName } from '../client.ts';
import type { AgbotRef } from './agbot-ref.ts';
import { agbotStateKeys } from './keys.ts';

export async function readFeedCursor(agbot: AgbotRef): Promise<number | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({
      TableName: tableName(),
      Key: agbotStateKeys.feedCursor(agbot.org, agbot.id),
      ConsistentRead: true,
    }),
  );
  return Item ? Number(Item.changeId) : undefined;
}

/**
 * Moves the cursor to `next` on the condition that it still is `expected` (absent for the first
 * round): of two rounds that read the same cursor, one UpdateItem succeeds and the other is told.
 */
export async function advanceFeedCursor(
  agbot: AgbotRef,
  expected: number | undefined,
  next: number,
): Promise<CursorOutcome> {
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: agbotStateKeys.feedCursor(agbot.org, agbot.id),
        UpdateExpression: 'SET changeId = :next',
        ConditionExpression: expected === undefined ? 'attribute_not_exists(pk)' : 'changeId = :expected',
        ExpressionAttributeValues: {
          ':next': next,
          ...(expected === undefined ? {} : { ':expected': expected }),
        },
      }),
    );
    return 'advanced';
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return 'moved';
    throw error;
  }
}
