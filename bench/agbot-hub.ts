import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_TABLE, ROOT_PASSWORD, startBenchDynamo } from './env.ts';
import { type Counts, dynamoProxy, newCounts } from './fleet-proxies.ts';

/**
 * The hub the agbot benchmarks run (bench/agbot-stack.ts, bench/agbot-burst.ts): DynamoDB Local
 * behind the counting proxy, serverless-offline with the in-stack `agbotRound` function, `initdb`
 * done (the built-in agbot), and the local stream reader as `npm start` runs it, reading the
 * stream directly (Lambda's stream reads are not billed, so they are not counted); the signal
 * dispatcher's reader, which serverless-offline's helper runs, too.
 */
export interface AgbotHub {
  baseUrl: string;
  counts: Counts;
  scratch: string;
  /** How many times the stream reader invoked the round function so far. */
  invocations(): number;
  /** Everything serverless-offline printed so far (the round's log lines). */
  output(): string;
  /** Stops the stream reader (the standalone agbot is measured without it). */
  stopStream(): Promise<void>;
  /** Runs at the end, first the last added. */
  onStop(cleanup: () => Promise<void> | void): void;
  stop(): Promise<void>;
}

export async function startAgbotHub(name: string, env: Record<string, string> = {}): Promise<AgbotHub> {
  const scratch = mkdtempSync(join(tmpdir(), `bench-${name}-`));
  const dynamo = await startBenchDynamo();
  const counts = newCounts();
  const cleanups: (() => Promise<void> | void)[] = [() => rmSync(scratch, { recursive: true, force: true })];
  const stop = async () => {
    for (const cleanup of cleanups) await Promise.resolve(cleanup()).catch(() => undefined);
    await dynamo.stop();
  };
  try {
    const db = await dynamoProxy(dynamo.endpoint, counts);
    cleanups.unshift(db.close);
    const { createTableIfMissing } = await import('#tables/create-table');
    const { bootstrap } = await import('#tables/bootstrap');
    const { startOffline } = await import('../test/e2e/support/serverless-offline.ts');
    const { startAgbotStream } = await import('../scripts/local/agbot-stream.ts');
    const { exchangeCall } = await import('../agbot/test-support/scripted-node.ts');
    await createTableIfMissing(BENCH_TABLE);
    await bootstrap();
    const server = await startOffline({
      dynamoEndpoint: db.url,
      table: BENCH_TABLE,
      rootPassword: ROOT_PASSWORD,
      env: {
        EXCHANGE_AGBOT: 'in-stack',
        EXCHANGE_SECRETS_MASTER_KEY_FILE: join(scratch, 'secrets-master-key'),
        ...env,
      },
      // The signal dispatcher's stream reader, like the agbot's, reads the stream directly.
      streamsEndpoint: dynamo.endpoint,
    });
    cleanups.unshift(server.stop);
    const root = { user: 'root/root', secret: ROOT_PASSWORD };
    const initdb = await exchangeCall(server.baseUrl, root, 'POST', '/admin/initdb');
    if (initdb.status !== 201) throw new Error(`initdb → ${initdb.status}`);
    const reader = await startAgbotStream({
      dynamoEndpoint: dynamo.endpoint,
      table: BENCH_TABLE,
      lambdaUrl: server.lambdaUrl,
    });
    cleanups.unshift(reader.stop);
    return {
      baseUrl: server.baseUrl,
      counts,
      scratch,
      invocations: () => reader.invocations(),
      output: () => server.output(),
      stopStream: () => reader.stop(),
      onStop: (cleanup) => cleanups.unshift(cleanup),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
