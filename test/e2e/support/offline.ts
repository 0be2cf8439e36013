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
 * One serverless-offline server for this e2e test file alone, over the file's own table (named by
 * test/setup-env.ts, so fixtures written in-process land in the same table): for a file that needs
 * settings of its own, a quiet hub or the server's stream reader. Starting costs seconds: a file
 * that needs only the API shares its worker's server (shared-offline.ts).
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
  return e2eServer({
    addresses: () => server,
    client: () => client,
    signalsStream: () => server?.signalsStream,
    output: () => server?.output() ?? '',
    rootPassword,
  });
}

/** The addresses of a started server (undefined before its beforeAll ran). */
export type ServerAddresses = Pick<OfflineServer, 'baseUrl' | 'signalsUrl' | 'lambdaUrl'>;

/** The test's view of a server, own (above) or shared (shared-offline.ts). */
export function e2eServer(parts: {
  addresses: () => ServerAddresses | undefined;
  client: () => Http | undefined;
  signalsStream: () => StreamReader | undefined;
  output: () => string;
  rootPassword: string;
}): E2eServer {
  const started = () => {
    const addresses = parts.addresses();
    if (!addresses) throw new Error('the offline server is not started (beforeAll failed?)');
    return addresses;
  };
  return {
    get baseUrl() {
      return started().baseUrl;
    },
    get signalsUrl() {
      return started().signalsUrl;
    },
    get lambdaUrl() {
      return started().lambdaUrl;
    },
    get signalsStream() {
      return parts.signalsStream();
    },
    output: parts.output,
    rootPassword: parts.rootPassword,
    http: async (method, path, requestOptions) => {
      const client = parts.client();
      if (!client) throw new Error('the offline server is not started (beforeAll failed?)');
      const result = await client(method, path, requestOptions);
      if (result.status === 500) printServerErrors(`${method} ${path} → ${result.status}`, parts.output());
      return result;
    },
  };
}

/** A 500 answer names no cause: print the server's last logged errors beside the test's failure. */
function printServerErrors(request: string, output: string): void {
  const errors = output.split('\n').filter((line) => line.includes('unhandled error'));
  process.stderr.write(`${request}; the server's last logged errors:\n${errors.slice(-3).join('\n')}\n`);
}
