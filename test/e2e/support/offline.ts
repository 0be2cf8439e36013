import { afterAll, beforeAll, inject } from 'vitest';
import { bootstrap } from '#tables/bootstrap';
import { tableName } from '#tables/client';
import { createTableIfMissing } from '#tables/create-table';
import { type Http, httpClient } from '#test/support/http';
import { checkedHttp } from '#test/support/our-openapi';
import { dropTestTable } from '#test/support/table';
import type { StreamReader } from '../../../scripts/local/stream-reader.ts';
import { type OfflineServer, startOffline } from './serverless-offline.ts';

/**
 * One serverless-offline server per e2e test file, over this file's own table (named by
 * test/setup-env.ts, so fixtures written in-process land in the same table). Starting costs
 * seconds: keep e2e tests in few files.
 */
export interface E2eServer {
  readonly baseUrl: string;
  /** The signal channel's address (docs/signals.md). */
  readonly signalsUrl: string;
  /** serverless-offline's Lambda invoke API (the in-stack agbot's functions). */
  readonly lambdaUrl: string;
  /** The signal dispatcher's stream reader, which the server runs beside it (docs/signals.md). */
  readonly signalsStream: StreamReader | undefined;
  /** Everything the server printed so far (for failure messages). */
  output(): string;
  readonly rootPassword: string;
  http: Http;
}

export function useOffline(options: { env?: Record<string, string> } = {}): E2eServer {
  let server: OfflineServer | undefined;
  let client: Http | undefined;
  const rootPassword = process.env.EXCHANGE_ROOT_PW ?? 'root-test-password';
  beforeAll(async () => {
    await createTableIfMissing(tableName());
    await bootstrap();
    server = await startOffline({
      dynamoEndpoint: inject('dynamoEndpoint'),
      table: tableName(),
      rootPassword,
      env: options.env,
      prebuiltDir: inject('exchangeBuildDir'),
    });
    // Every 2xx answer is checked against our OpenAPI document and upstream's.
    client = checkedHttp(httpClient(server.baseUrl));
  });
  afterAll(async () => {
    await server?.stop();
    await dropTestTable().catch(() => undefined);
  });
  return {
    get baseUrl() {
      if (!server) throw new Error('the offline server is not started (beforeAll failed?)');
      return server.baseUrl;
    },
    get signalsUrl() {
      if (!server) throw new Error('the offline server is not started (beforeAll failed?)');
      return server.signalsUrl;
    },
    get lambdaUrl() {
      if (!server) throw new Error('the offline server is not started (beforeAll failed?)');
      return server.lambdaUrl;
    },
    get signalsStream() {
      return server?.signalsStream;
    },
    output: () => server?.output() ?? '',
    rootPassword,
    http: async (method, path, requestOptions) => {
      if (!client) throw new Error('the offline server is not started (beforeAll failed?)');
      const result = await client(method, path, requestOptions);
      if (result.status === 500)
        printServerErrors(`${method} ${path} → ${result.status}`, server?.output() ?? '');
      return result;
    },
  };
}

/** A 500 answer names no cause: print the server's last logged errors beside the test's failure. */
function printServerErrors(request: string, output: string): void {
  const errors = output.split('\n').filter((line) => line.includes('unhandled error'));
  process.stderr.write(`${request}; the server's last logged errors:\n${errors.slice(-3).join('\n')}\n`);
}
