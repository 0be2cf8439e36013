import { AsyncLocalStorage } from 'node:async_hooks';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { withConstructorKeysAsMaps } from './constructor-keys.ts';

/**
 * The one DynamoDB client of a process. Locally `DYNAMODB_ENDPOINT` points at DynamoDB Local; on
 * Lambda it is unset and the SDK uses the function's region and role.
 */
const endpoint = process.env.DYNAMODB_ENDPOINT || undefined;

/**
 * Bounded waits, so that a DynamoDB that is down or does not answer fails the request with a 503
 * (lib/http/unavailable.ts) instead of hanging until the function's timeout (29 s): a connection
 * within 1 s, an answer within 4 s (the SDK only warns past it unless told to throw), and the SDK's
 * 5 attempts with its backoff: at most about 22 s in all, and about 1 s when the connection is refused.
 * DYNAMODB_REQUEST_TIMEOUT_MS changes the answer's bound: the test suite's DynamoDB Local, shared by
 * every file on two loaded cores, takes longer than 4 s for a call at times (test/setup-env.ts).
 */
export const DYNAMODB_TIMEOUTS = {
  connectionTimeout: 1000,
  requestTimeout: 4000,
  throwOnRequestTimeout: true,
};

export const dynamoClient = new DynamoDBClient({
  ...(endpoint
    ? {
        endpoint,
        region: process.env.AWS_REGION ?? 'local',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      }
    : {}),
  maxAttempts: 5,
  requestHandler: {
    ...DYNAMODB_TIMEOUTS,
    requestTimeout: Number(process.env.DYNAMODB_REQUEST_TIMEOUT_MS) || DYNAMODB_TIMEOUTS.requestTimeout,
  },
});

let calls = 0;
/** What the calls made inside `withCallLabel` are counted under (benchmarks: calls by route). */
const callLabel = new AsyncLocalStorage<string>();
const callsByLabel = new Map<string, number>();
/** Counts every request sent to DynamoDB: the benchmark reports calls per HTTP request. */
dynamoClient.middlewareStack.add(
  (next, context) => (args) => {
    calls += 1;
    const label = callLabel.getStore();
    if (label !== undefined) {
      const key = `${label} ${context.commandName ?? ''}`;
      callsByLabel.set(key, (callsByLabel.get(key) ?? 0) + 1);
    }
    return next(args);
  },
  { step: 'initialize', name: 'countDynamoCalls' },
);
export const dynamoCallCount = (): number => calls;
/** Runs `work` with its DynamoDB calls counted under `label` too (`dynamoCallsByLabel`). */
export const withCallLabel = <T>(label: string, work: () => T): T => callLabel.run(label, work);
/** Calls made under each label so far, by `<label> <command>`. */
export const dynamoCallsByLabel = (): Map<string, number> => new Map(callsByLabel);

/**
 * Before the document client marshals an item (initialize runs before its DocumentMarshall). Raw
 * commands go through here too, but this code sends only table administration ones raw.
 */
dynamoClient.middlewareStack.add(
  (next) => (args) => next({ ...args, input: withConstructorKeysAsMaps(args.input) as typeof args.input }),
  { step: 'initialize', name: 'constructorKeysAsMaps' },
);

export const documentClient = DynamoDBDocumentClient.from(dynamoClient, {
  marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
});

export const tableName = (): string => process.env.EXCHANGE_TABLE ?? 'exchange';
