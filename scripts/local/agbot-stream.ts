import { setTimeout as sleep } from 'node:timers/promises';
import { BUILT_IN_AGBOT } from '#lib/agbot/built-in';
import { agbotStreamPatterns, matchesStreamPatterns } from '#lib/feed/agbot-stream-filter';
import { STREAM_BATCH_WINDOW_S } from '../../functions/agbot-round/function.ts';
import { dynamoStreams, type StreamRecord } from './dynamodb-streams.ts';
import { httpRequest } from './http-request.ts';

/**
 * What AWS does for the stack's `agbotRound` stream event, done locally (serverless-offline runs
 * no DynamoDB streams): reads DynamoDB Local's stream of the table shard by shard, keeps the
 * records that pass the stack's own filter (lib/feed/agbot-stream-filter.ts), gathers them for the
 * same batching window, and invokes the function with them through serverless-offline's Lambda
 * invoke API, one batch at a time, as a stream's event source mapping does. (The function's
 * schedule, every minute, serverless-offline runs itself.)
 */
export interface AgbotStreamReader {
  /** Invocations made so far (the benchmark counts them). */
  invocations(): number;
  stop(): Promise<void>;
}

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

interface ShardCursor {
  iterator: string;
}

export async function startAgbotStream(options: AgbotStreamOptions): Promise<AgbotStreamReader> {
  const streams = dynamoStreams(options.dynamoEndpoint);
  const functionName = options.functionName ?? 'open-exchange-dev-agbotRound';
  const pollMs = options.pollMs ?? 200;
  const batchWindowMs = options.batchWindowMs ?? STREAM_BATCH_WINDOW_S * 1000;
  const log = options.log ?? ((line: string) => console.log(line));
  const patterns = agbotStreamPatterns(BUILT_IN_AGBOT);
  const streamArn = await streams.latestStreamArn(options.table);
  if (!streamArn) throw new Error(`table ${options.table} has no stream`);
  const shards = new Map<string, ShardCursor>();
  const seen = new Set<string>();
  let invocations = 0;
  let stopped = false;

  /** Open shards start at their end (LATEST, as the stack's mapping); shards found later at their start. */
  async function discover(first: boolean): Promise<void> {
    const { StreamDescription } = await streams.describeStream(streamArn as string);
    for (const shard of StreamDescription.Shards ?? []) {
      if (seen.has(shard.ShardId)) continue;
      const closed = shard.SequenceNumberRange?.EndingSequenceNumber !== undefined;
      if (first && closed) {
        seen.add(shard.ShardId);
        continue;
      }
      const iterator = await streams.shardIterator(
        streamArn as string,
        shard.ShardId,
        first ? 'LATEST' : 'TRIM_HORIZON',
      );
      seen.add(shard.ShardId);
      if (iterator) shards.set(shard.ShardId, { iterator });
    }
  }

  /** Reads each shard once; answers the records that pass the filter. */
  async function readShards(): Promise<StreamRecord[]> {
    const matched: StreamRecord[] = [];
    for (const [id, cursor] of shards) {
      const { Records = [], NextShardIterator } = await streams.records(cursor.iterator);
      matched.push(...Records.filter((record) => matchesStreamPatterns(patterns, record)));
      if (NextShardIterator) cursor.iterator = NextShardIterator;
      else shards.delete(id);
    }
    return matched;
  }

  async function invoke(records: StreamRecord[]): Promise<void> {
    invocations += 1;
    const response = await httpRequest(
      `${options.lambdaUrl}/2015-03-31/functions/${functionName}/invocations`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-amz-invocation-type': 'RequestResponse' },
        body: JSON.stringify({ Records: records }),
        timeoutMs: 120_000,
      },
    );
    if (response.status !== 200 || response.headers['x-amz-function-error'])
      log(`[agbot stream] the round function failed: HTTP ${response.status} ${response.text.slice(0, 200)}`);
  }

  async function run(): Promise<void> {
    let lastDiscovery = Date.now();
    while (!stopped) {
      try {
        if (shards.size === 0 || Date.now() - lastDiscovery > 10_000) {
          await discover(false);
          lastDiscovery = Date.now();
        }
        const batch = await readShards();
        if (batch.length > 0) {
          // The batching window: what else arrives meanwhile goes in the same invocation.
          const until = Date.now() + batchWindowMs;
          while (Date.now() < until && !stopped) {
            await sleep(Math.min(pollMs, until - Date.now()));
            batch.push(...(await readShards()));
          }
          if (!stopped) await invoke(batch);
          continue;
        }
      } catch (error) {
        if (!stopped) log(`[agbot stream] ${(error as Error).message}`);
      }
      await sleep(pollMs);
    }
  }

  await discover(true);
  const running = run();
  return {
    invocations: () => invocations,
    stop: async () => {
      stopped = true;
      await running;
    },
  };
}
