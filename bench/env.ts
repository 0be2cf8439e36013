import { type DynamoDbLocal, startDynamoDbLocal } from '../scripts/local/dynamodb-local.ts';
import { freePort } from '../scripts/local/ports.ts';

/**
 * The benchmark's own in-memory DynamoDB Local. The environment is set before any module that
 * reads it (tables/client.ts) is imported, so run.ts imports everything else afterwards.
 */
export const BENCH_TABLE = 'exchange-bench';
export const ROOT_PASSWORD = 'bench-root-password';

export async function startBenchDynamo(options: { heapMb?: number } = {}): Promise<DynamoDbLocal> {
  const dynamo = await startDynamoDbLocal({ port: await freePort(), heapMb: options.heapMb });
  // A benchmark stopped by a signal (a long run cut short) stops its DynamoDB Local too: by
  // default Node would exit at once and leave the JVM, with its gigabytes, running.
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)
    process.once(signal, () => void dynamo.stop().finally(() => process.exit(code)));
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  process.env.AWS_REGION = 'local';
  process.env.EXCHANGE_TABLE = BENCH_TABLE;
  process.env.EXCHANGE_ROOT_PW = ROOT_PASSWORD;
  return dynamo;
}
