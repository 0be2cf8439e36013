import { countedItemPatterns, signalStreamPatterns } from '#lib/signals/stream-filter';

/**
 * The signal channel's function in serverless.yml (docs/signals.md): API Gateway's WebSocket API,
 * one small Lambda for its three routes. Not a route family: no HTTP mount, no OpenAPI operation.
 */
export const SIGNALS_FUNCTION = {
  handler: 'functions/signals/lambda.handler',
  memorySize: 256,
  events: [
    { websocket: { route: '$connect' } },
    { websocket: { route: '$disconnect' } },
    { websocket: { route: '$default' } },
  ],
};

/**
 * How the stream's event source mapping retries a batch whose dispatch failed (a connection
 * neither signalled nor closed, a table error): twice, halving the batch each time, and never for
 * rows older than two minutes. What still fails is dropped: those listeners poll at their next
 * (re)open or hourly poll, as before the dispatcher.
 */
export const DISPATCH_RETRY = {
  maximumRetryAttempts: 2,
  bisectBatchOnFunctionError: true,
  maximumRecordAgeInSeconds: 120,
};

/**
 * The signal dispatcher's function (functions/signals/dispatch.ts, docs/signals.md): on the
 * table's stream, filtered to new change rows (lib/signals/stream-filter.ts) and to the messages
 * and agreements it counts (tables/org/stream-counts.ts), with no batching window (a signal is
 * worth most at once). One consumer does both: a stream's shard serves at most two readers well,
 * and the in-stack agbot is the other. Its own role (serverless.yml, `SignalsDispatchRole`)
 * reaches the stream, the signal partitions, the nodes' liveness items, the orgs' counters and
 * the channel's connections (post and close). Its timeout covers a post and a close with all their retries.
 */
export const SIGNALS_DISPATCH_FUNCTION = {
  handler: 'functions/signals/dispatch.handler',
  memorySize: 256,
  timeout: 30,
  role: 'SignalsDispatchRole',
  events: [
    {
      stream: {
        type: 'dynamodb',
        arn: { 'Fn::GetAtt': ['ExchangeTable', 'StreamArn'] },
        startingPosition: 'LATEST',
        batchSize: 100,
        batchWindow: 0,
        ...DISPATCH_RETRY,
        filterPatterns: [...signalStreamPatterns(), ...countedItemPatterns()],
      },
    },
  ],
};
