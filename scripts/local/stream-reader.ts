import { setTimeout as sleep } from 'node:timers/promises';
import { matchesStreamPatterns } from '#lib/feed/agbot-stream-filter';
import { dynamoStreams, type StreamRecord, StreamsCallError } from './dynamodb-streams.ts';
import { httpRequest } from './http-request.ts';

/**
 * What AWS does for a function's `stream` event (a DynamoDB stream's event source mapping), done
 * locally, since serverless-offline runs no DynamoDB streams: reads DynamoDB Local's stream of the
 * table shard by shard, keeps the records that pass the mapping's filter patterns, gathers them
 * for its batching window, and invokes the function with them (at most `batchSize` a call)
 * through serverless-offline's Lambda invoke API, one batch at a time, as a shard's mapping does.
 * A failed invocation (the function threw, or the API failed) is retried with backoff up to the
 * mapping's `maximumRetryAttempts`, halving the batch when `bisectBatchOnFunctionError` says so,
 * and never for records older than `maximumRecordAgeInSeconds`; then the records are dropped with
 * a logged line, as an on-failure destination would record them. Used for every stream function
 * of the stack: the in-stack agbot (scripts/local/agbot-stream.ts) and the signal dispatcher
 * (scripts/local/signals-stream.ts).
 */
export interface EventSourceMapping {
  /** The function's deployed name, `<service>-<stage>-<function>`. */
  functionName: string;
  filterPatterns: Parameters<typeof matchesStreamPatterns>[0];
  batchSize: number;
  batchWindowMs: number;
  maximumRetryAttempts: number;
  bisectBatchOnFunctionError: boolean;
  /** Records older than this are dropped instead of retried (undefined: no limit). */
  maximumRecordAgeMs?: number;
}

/** The local stack's service and stage (serverless.yml's `service`, and the default stage). */
const DEPLOYED_PREFIX = 'open-exchange-dev-';

/**
 * Retries of a failed invocation when the declaration sets none (AWS's default is to retry until
 * the record expires, a day: locally a few are enough to see the behaviour, and bound it).
 */
const DEFAULT_LOCAL_RETRIES = 2;

interface StreamEventDeclaration {
  batchSize?: number;
  batchWindow?: number;
  maximumRetryAttempts?: number;
  bisectBatchOnFunctionError?: boolean;
  maximumRecordAgeInSeconds?: number;
  filterPatterns?: EventSourceMapping['filterPatterns'];
}

/** The mapping AWS makes of the `stream` event of `declaration` (a function of serverless.yml). */
export function mappingOf(name: string, declaration: { events: readonly unknown[] }): EventSourceMapping {
  const event = declaration.events.find(
    (e): e is { stream: StreamEventDeclaration } => typeof e === 'object' && e !== null && 'stream' in e,
  )?.stream;
  if (!event) throw new Error(`function ${name} has no stream event`);
  const retries = event.maximumRetryAttempts;
  const age = event.maximumRecordAgeInSeconds;
  return {
    functionName: `${DEPLOYED_PREFIX}${name}`,
    filterPatterns: event.filterPatterns ?? [],
    batchSize: event.batchSize ?? 100,
    batchWindowMs: (event.batchWindow ?? 0) * 1000,
    maximumRetryAttempts: retries === undefined || retries < 0 ? DEFAULT_LOCAL_RETRIES : retries,
    bisectBatchOnFunctionError: event.bisectBatchOnFunctionError === true,
    ...(age !== undefined && age > 0 ? { maximumRecordAgeMs: age * 1000 } : {}),
  };
}

/** Invokes the function with a batch; throws when the invocation failed (the function threw). */
export type Invoke = (records: StreamRecord[]) => Promise<void>;

/** serverless-offline's Lambda invoke API, synchronously, as a mapping invokes. */
export const lambdaInvoke =
  (lambdaUrl: string, functionName: string): Invoke =>
  async (records) => {
    const response = await httpRequest(`${lambdaUrl}/2015-03-31/functions/${functionName}/invocations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-amz-invocation-type': 'RequestResponse' },
      body: JSON.stringify({ Records: records }),
      timeoutMs: 120_000,
    });
    if (response.status !== 200 || response.headers['x-amz-function-error'])
      throw new Error(`HTTP ${response.status} ${response.text.slice(0, 300)}`);
  };

export interface StreamReaderOptions {
  dynamoEndpoint: string;
  table: string;
  mapping: EventSourceMapping;
  /** serverless-offline's Lambda API (`http://127.0.0.1:<lambda port>`), unless `invoke` is given. */
  lambdaUrl?: string;
  /** How the function is invoked; serverless-offline's Lambda API by default. */
  invoke?: Invoke;
  /** How often each shard is read while idle. */
  pollMs?: number;
  /**
   * How often each shard is read while idle and nobody awaits `settled()`, when slower than
   * `pollMs`: a test's reader that only matters when awaited then costs the shared DynamoDB Local
   * little. `settled()` wakes it at once. Default: `pollMs`.
   */
  idlePollMs?: number;
  /** The pause before the first retry of a failed invocation; doubled for each next one. */
  retryBaseMs?: number;
  /** Names the reader in its log lines, e.g. `signals stream`. */
  label?: string;
  log?: (line: string) => void;
}

export interface StreamReader {
  /** Invocations made so far, retries included (benchmarks count them). */
  invocations(): number;
  /** Records that passed the filter so far. */
  records(): number;
  /** Invocations that failed. */
  failures(): number;
  /** Records dropped after their retries (or their age). */
  dropped(): number;
  /**
   * Resolves once the shards were read twice finding nothing, every earlier batch delivered: what
   * was written to the table before the call has been handled (tests wait on this, not on a time).
   */
  settled(): Promise<void>;
  /** Stops reading; a retry waiting for its turn is given up. */
  stop(): Promise<void>;
}

interface ShardCursor {
  iterator: string;
  /** The last record read from the shard, to take up after it again (below). */
  lastSequence?: string;
}

/**
 * DynamoDB Local answers GetRecords on an iterator taken at LATEST of a shard that held no record
 * yet with TrimmedDataAccessException once the first record arrives, and again on every later
 * call (aws/aws-sdk-java#2923). The shard is read again after its last record read, or from its
 * start when none was read: then it held nothing when the LATEST iterator was taken.
 */
const iteratorLost = (error: unknown): boolean =>
  error instanceof StreamsCallError &&
  (error.type === 'TrimmedDataAccessException' || error.type === 'ExpiredIteratorException');

/** A record's age: the stream's approximate creation time (seconds) or, without it, when it was read. */
const createdAtMs = (record: StreamRecord, readAt: number): number => {
  const seconds = Number(
    (record.dynamodb as { ApproximateCreationDateTime?: number } | undefined)?.ApproximateCreationDateTime,
  );
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : readAt;
};

export async function startStreamReader(options: StreamReaderOptions): Promise<StreamReader> {
  const { mapping } = options;
  const streams = dynamoStreams(options.dynamoEndpoint);
  const pollMs = options.pollMs ?? 200;
  const idlePollMs = Math.max(pollMs, options.idlePollMs ?? pollMs);
  const retryBaseMs = options.retryBaseMs ?? 250;
  const label = options.label ?? `${mapping.functionName} stream`;
  const log = options.log ?? ((line: string) => console.log(line));
  const invoke =
    options.invoke ??
    (options.lambdaUrl
      ? lambdaInvoke(options.lambdaUrl, mapping.functionName)
      : () => Promise.reject(new Error('no lambdaUrl and no invoke given')));
  const streamArn = await streams.latestStreamArn(options.table);
  if (!streamArn) throw new Error(`table ${options.table} has no stream`);
  const shards = new Map<string, ShardCursor>();
  const seen = new Set<string>();
  const counts = { invocations: 0, records: 0, failures: 0, dropped: 0 };
  const stopping = new AbortController();
  const firstRead = new WeakMap<StreamRecord, number>();
  /** Reads that found nothing, and who waits for their number to reach a target. */
  let emptyReads = 0;
  const settling = new Set<{ target: number; resolve: () => void }>();
  const readEmpty = () => {
    emptyReads += 1;
    for (const waiter of settling)
      if (emptyReads >= waiter.target || stopping.signal.aborted) {
        settling.delete(waiter);
        waiter.resolve();
      }
  };

  /** Open shards start at their end (LATEST, as the stack's mappings); shards found later at their start. */
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
    const now = Date.now();
    for (const [id, cursor] of shards) {
      const { Records = [], NextShardIterator } = await streams
        .records(cursor.iterator)
        .catch(async (error) => {
          if (!iteratorLost(error)) throw error;
          const iterator = cursor.lastSequence
            ? await streams.shardIterator(
                streamArn as string,
                id,
                'AFTER_SEQUENCE_NUMBER',
                cursor.lastSequence,
              )
            : await streams.shardIterator(streamArn as string, id, 'TRIM_HORIZON');
          if (!iterator) throw error;
          return streams.records(iterator);
        });
      const last = Records.at(-1)?.dynamodb?.SequenceNumber;
      if (last) cursor.lastSequence = last;
      for (const record of Records)
        if (matchesStreamPatterns(mapping.filterPatterns, record)) {
          firstRead.set(record, now);
          matched.push(record);
        }
      if (NextShardIterator) cursor.iterator = NextShardIterator;
      else shards.delete(id);
    }
    counts.records += matched.length;
    return matched;
  }

  const pause = (ms: number) =>
    sleep(ms, undefined, { signal: stopping.signal }).then(
      () => true,
      () => false,
    );

  /** The idle wait between reads; `settled()` aborts `wake` to cut it short (a waiter wants reads now). */
  let wake = new AbortController();
  const idle = async (): Promise<void> => {
    if (settling.size > 0) {
      await pause(pollMs);
      return;
    }
    wake = new AbortController();
    await sleep(idlePollMs, undefined, { signal: AbortSignal.any([stopping.signal, wake.signal]) }).catch(
      () => undefined,
    );
  };

  function drop(records: StreamRecord[], why: string): void {
    counts.dropped += records.length;
    log(`[${label}] dropped ${records.length} record(s) of ${mapping.functionName}: ${why}`);
  }

  /** One batch: invoked, and on failure retried (bisected) while retries and the records' age allow. */
  async function deliver(batch: StreamRecord[], retriesLeft: number): Promise<void> {
    const maxAge = mapping.maximumRecordAgeMs;
    const live =
      maxAge === undefined
        ? batch
        : batch.filter((r) => Date.now() - createdAtMs(r, firstRead.get(r) ?? Date.now()) <= maxAge);
    if (live.length < batch.length)
      drop(
        batch.filter((r) => !live.includes(r)),
        'older than the maximum record age',
      );
    if (live.length === 0) return;
    counts.invocations += 1;
    try {
      await invoke(live);
      return;
    } catch (error) {
      counts.failures += 1;
      const why = (error as Error).message;
      if (retriesLeft <= 0) return drop(live, `failed after its retries: ${why}`);
      log(`[${label}] ${mapping.functionName} failed (${why}); retrying`);
      const attempt = mapping.maximumRetryAttempts - retriesLeft;
      if (!(await pause(retryBaseMs * 2 ** attempt))) return;
      if (mapping.bisectBatchOnFunctionError && live.length > 1) {
        const half = Math.ceil(live.length / 2);
        await deliver(live.slice(0, half), retriesLeft - 1);
        await deliver(live.slice(half), retriesLeft - 1);
      } else await deliver(live, retriesLeft - 1);
    }
  }

  async function run(): Promise<void> {
    let lastDiscovery = Date.now();
    while (!stopping.signal.aborted) {
      try {
        if (shards.size === 0 || Date.now() - lastDiscovery > 10_000) {
          await discover(false);
          lastDiscovery = Date.now();
        }
        const batch = await readShards();
        if (batch.length > 0) {
          // The batching window: what else arrives meanwhile goes in the same invocation.
          const until = Date.now() + mapping.batchWindowMs;
          while (Date.now() < until && (await pause(Math.min(pollMs, until - Date.now()))))
            batch.push(...(await readShards()));
          for (let i = 0; i < batch.length && !stopping.signal.aborted; i += mapping.batchSize)
            await deliver(batch.slice(i, i + mapping.batchSize), mapping.maximumRetryAttempts);
          continue;
        }
        readEmpty();
      } catch (error) {
        if (!stopping.signal.aborted) log(`[${label}] ${(error as Error).message}`);
      }
      await idle();
    }
  }

  await discover(true);
  const running = run();
  return {
    invocations: () => counts.invocations,
    records: () => counts.records,
    failures: () => counts.failures,
    dropped: () => counts.dropped,
    settled: () =>
      stopping.signal.aborted
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            settling.add({ target: emptyReads + 2, resolve });
            wake.abort();
          }),
    stop: async () => {
      stopping.abort();
      await running;
      for (const waiter of settling) waiter.resolve();
      settling.clear();
    },
  };
}
