import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { agbotDocumentClient, exchangeTable } from './dynamo.ts';

/**
 * One round at a time per agbot, whatever invokes the function (the stream, the schedule, a
 * retry) and however many instances run: a lease item in the agbot's partition, taken with a
 * conditional write and held at most until the invocation's own timeout (a crashed holder's lease
 * simply expires). An invocation that finds the lease held asks the holder for another round
 * (`again`) and returns: what woke it is read by that round. The holder checks `again` in the
 * same conditional write that releases the lease, so a request is never lost between the two.
 * Reserved concurrency would also serialise invocations, but it cannot be set on the many
 * accounts whose concurrency limit is 10, and serverless-offline ignores it.
 */
export type Release = 'released' | 'again' | 'lost';

const key = (agbot: { org: string; id: string }) => ({
  pk: `AGBOT#${agbot.org}/${agbot.id}`,
  sk: 'ROUNDLEASE',
});

export function roundLease(agbot: { org: string; id: string }, holder: string) {
  const update = async (input: Omit<ConstructorParameters<typeof UpdateCommand>[0], 'TableName' | 'Key'>) => {
    try {
      await agbotDocumentClient.send(
        new UpdateCommand({ TableName: exchangeTable(), Key: key(agbot), ...input }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  };
  return {
    /** Takes the lease until `until` (ms); false when another holds it (then it will run again). */
    async acquire(now: number, until: number): Promise<boolean> {
      for (let attempt = 0; attempt < 3; attempt++) {
        const taken = await update({
          UpdateExpression: 'SET holder = :holder, expiresAt = :until, again = :no',
          ConditionExpression: 'attribute_not_exists(expiresAt) OR expiresAt < :now',
          ExpressionAttributeValues: { ':holder': holder, ':until': until, ':now': now, ':no': false },
        });
        if (taken) return true;
        const asked = await update({
          UpdateExpression: 'SET again = :yes',
          ConditionExpression: 'expiresAt >= :now',
          ExpressionAttributeValues: { ':yes': true, ':now': now },
        });
        if (asked) return false;
        // Released (or expired) between the two writes: try to take it again.
      }
      return false;
    },
    /**
     * Releases the lease, unless another round was asked for meanwhile: then keeps it (until
     * `until`) and answers 'again'. 'lost': the lease expired and another invocation holds it.
     */
    async release(until: number): Promise<Release> {
      const released = await update({
        UpdateExpression: 'REMOVE holder, expiresAt',
        ConditionExpression: 'holder = :holder AND again = :no',
        ExpressionAttributeValues: { ':holder': holder, ':no': false },
      });
      if (released) return 'released';
      const kept = await update({
        UpdateExpression: 'SET again = :no, expiresAt = :until',
        ConditionExpression: 'holder = :holder',
        ExpressionAttributeValues: { ':holder': holder, ':no': false, ':until': until },
      });
      return kept ? 'again' : 'lost';
    },
    /** Releases the lease whatever was asked (an invocation out of time or failed): the schedule takes over. */
    async abandon(): Promise<void> {
      await update({
        UpdateExpression: 'REMOVE holder, expiresAt',
        ConditionExpression: 'holder = :holder',
        ExpressionAttributeValues: { ':holder': holder },
      });
    },
  };
}
