import { BUILT_IN_AGBOT } from '#lib/agbot/built-in';
import { agbotStreamPatterns } from '#lib/feed/agbot-stream-filter';

/**
 * How long change rows gather before the stream invokes the round (seconds). None: the round
 * starts as soon as the stream is read (4 times a second on AWS), which keeps policy → proposal
 * under 2 s; the round lease folds a burst of invocations into one round and one more.
 */
export const STREAM_BATCH_WINDOW_S = 0;

/**
 * How the stream's event source mapping treats a batch whose round failed: twice more, halving the
 * batch each time (bisect), and never for records older than ten minutes; then the batch's
 * description (its shard and sequence numbers, not its records) goes to the failure queue
 * (serverless.yml, `AgbotStreamFailures`) and the mapping moves on. Nothing is lost with it: a
 * round reads the change feed from its own cursor, so the next round (the schedule's, within a
 * minute) handles those changes; the queue and its alarm say that rounds kept failing
 * (docs/operations.md, "Replay the agbot's stream failures").
 */
export const AGBOT_STREAM_RETRY = {
  maximumRetryAttempts: 2,
  bisectBatchOnFunctionError: true,
  maximumRecordAgeInSeconds: 600,
};

/**
 * The in-stack agbot's function in serverless.yml (docs/agbot.md, "In the stack"): the agbot's
 * round (stack/agbot-round.ts: the standalone program's round code on the DynamoDB store), invoked by the table's
 * stream, filtered to the change rows the agbot acts on (lib/feed/agbot-stream-filter.ts), and
 * by a schedule every minute (timeouts, governance, rescans; and a round its predecessor left
 * unfinished). A lease in the table lets one round run at a time (agbot/lambda/round-lease.ts).
 * Its own role (serverless.yml, `AgbotRoundRole`) reaches only what it touches. Not a route
 * family: no HTTP mount, no OpenAPI operation. `EXCHANGE_API_URL` (the Exchange it calls, as any
 * agbot does) is added by functions/serverless-functions.cjs.
 */
export const AGBOT_ROUND_FUNCTION = {
  handler: 'stack/agbot-round.handler',
  memorySize: 512,
  timeout: 60,
  // One instance at most: the lease already lets one round run at a time, and a second instance
  // would only wait on it. The stream's batches and the schedule's events wait their turn (Lambda
  // retries them), and the agbot can never take concurrency from the Exchange's functions.
  reservedConcurrency: 1,
  role: 'AgbotRoundRole',
  events: [
    {
      stream: {
        type: 'dynamodb',
        arn: { 'Fn::GetAtt': ['ExchangeTable', 'StreamArn'] },
        startingPosition: 'LATEST',
        batchSize: 100,
        batchWindow: STREAM_BATCH_WINDOW_S,
        // A failed round is redone by the next one from the same cursor: no need to retry long.
        ...AGBOT_STREAM_RETRY,
        destinations: {
          onFailure: { arn: { 'Fn::GetAtt': ['AgbotStreamFailures', 'Arn'] }, type: 'sqs' as const },
        },
        filterPatterns: agbotStreamPatterns(BUILT_IN_AGBOT),
      },
    },
    { schedule: { rate: ['rate(1 minute)'] } },
  ],
};
