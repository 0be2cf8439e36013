import { AGBOT_ROUND_FUNCTION } from '../../functions/agbot-round/function.ts';
import { mappingOf, type StreamReader, startStreamReader } from './stream-reader.ts';

/**
 * What AWS does for the stack's `agbotRound` stream event, done locally (serverless-offline runs
 * no DynamoDB streams): the local reader of an event source mapping (scripts/local/stream-reader.ts)
 * with the function's own declaration (functions/agbot-round/function.ts: the filter of
 * lib/feed/agbot-stream-filter.ts, its batching window and retries). (The function's schedule,
 * every minute, serverless-offline runs itself.)
 */
export type AgbotStreamReader = StreamReader;

export interface AgbotStreamOptions {
  dynamoEndpoint: string;
  table: string;
  /** serverless-offline's Lambda API, `http://127.0.0.1:<lambda port>`. */
  lambdaUrl: string;
  /** The function's deployed name: `<service>-<stage>-agbotRound`. */
  functionName?: string;
  /** How often each shard is read while idle. */
  pollMs?: number;
  batchWindowMs?: number;
  log?: (line: string) => void;
}

export function startAgbotStream(options: AgbotStreamOptions): Promise<AgbotStreamReader> {
  const mapping = mappingOf('agbotRound', AGBOT_ROUND_FUNCTION);
  return startStreamReader({
    dynamoEndpoint: options.dynamoEndpoint,
    table: options.table,
    lambdaUrl: options.lambdaUrl,
    mapping: {
      ...mapping,
      ...(options.functionName ? { functionName: options.functionName } : {}),
      ...(options.batchWindowMs !== undefined ? { batchWindowMs: options.batchWindowMs } : {}),
    },
    pollMs: options.pollMs ?? 200,
    label: 'agbot stream',
    ...(options.log ? { log: options.log } : {}),
  });
}
