import { SIGNALS_DISPATCH_FUNCTION } from '../../functions/signals/function.ts';
import { mappingOf, type StreamReader, startStreamReader } from './stream-reader.ts';

/**
 * What AWS does for the stack's `signalsDispatch` stream event, done locally (docs/signals.md):
 * the local reader of an event source mapping (scripts/local/stream-reader.ts) with the function's
 * own declaration (functions/signals/function.ts: new change rows, no batching window, its
 * retries, bisection and maximum record age). `npm start` (scripts/start-local.ts) and every
 * serverless-offline of the tests and benchmarks (test/e2e/support/serverless-offline.ts) run it
 * beside a server that has a signal channel.
 */
export interface SignalsStreamOptions {
  dynamoEndpoint: string;
  table: string;
  /** serverless-offline's Lambda API, `http://127.0.0.1:<lambda port>`. */
  lambdaUrl: string;
  /**
   * How often each shard is read while idle: DynamoDB Streams is read about 4 times a second by
   * Lambda; a little more often here so that "written → node polls" stays as quick as it was when
   * writes signalled by themselves.
   */
  pollMs?: number;
  log?: (line: string) => void;
}

export const startSignalsStream = (options: SignalsStreamOptions): Promise<StreamReader> =>
  startStreamReader({
    dynamoEndpoint: options.dynamoEndpoint,
    table: options.table,
    lambdaUrl: options.lambdaUrl,
    mapping: mappingOf('signalsDispatch', SIGNALS_DISPATCH_FUNCTION),
    pollMs: options.pollMs ?? 100,
    label: 'signals stream',
    ...(options.log ? { log: options.log } : {}),
  });
