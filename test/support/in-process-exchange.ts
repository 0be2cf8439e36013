import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll } from 'vitest';
import { getConfig } from '#lib/config';
import { bootstrap } from '#tables/bootstrap';
import { dynamoClient, tableName } from '#tables/client';
import { createTableIfMissing } from '#tables/create-table';
import { startExchangeHttp } from './exchange-http.ts';
import { type Http, httpClient } from './http.ts';
import { checkedHttp } from './our-openapi.ts';

/**
 * The Exchange a test file talks to over HTTP: what the matrices and their fixtures need of it
 * (test/e2e/support/offline.ts's E2eServer has the same fields).
 */
export interface ExchangeUnderTest {
  /** Without `/v1`. */
  readonly baseUrl: string;
  /** The password the handlers accept for `root/root`. */
  readonly rootPassword: string;
  /** Every 2xx answer is checked against our OpenAPI document and upstream's. */
  readonly http: Http;
}

/**
 * The integration layer's Exchange over HTTP: this file's table (named by test/setup-env.ts,
 * created with the bootstrap records before its tests, dropped after them) and every family's
 * handlers behind an HTTP server in the test's own process (test/support/exchange-http.ts), which
 * hands them the request as serverless-offline does. No serverless-offline start, no signal
 * channel, no stream reader: for tests of what the handlers answer (the matrices), not of the
 * HTTP stack, which test/e2e proves once per concern. `env` is set for the handlers before the
 * first request (each test file runs in a process of its own).
 */
export function useInProcessExchange(options: { env?: Record<string, string> } = {}): ExchangeUnderTest {
  let server: Awaited<ReturnType<typeof startExchangeHttp>> | undefined;
  let client: Http | undefined;
  const notStarted = () => new Error('the in-process Exchange is not started (beforeAll failed?)');
  beforeAll(async () => {
    Object.assign(process.env, options.env);
    await createTableIfMissing(tableName(), { stream: false });
    await bootstrap();
    server = await startExchangeHttp();
    client = checkedHttp(httpClient(server.baseUrl));
  });
  afterAll(async () => {
    await server?.close();
    await dynamoClient.send(new DeleteTableCommand({ TableName: tableName() })).catch(() => undefined);
  });
  return {
    get baseUrl() {
      if (!server) throw notStarted();
      return server.baseUrl;
    },
    get rootPassword() {
      // What the handlers compare root's credentials with (EXCHANGE_ROOT_PW, test/setup-env.ts).
      const { rootPassword, rootEnabled } = getConfig();
      if (!rootPassword || !rootEnabled)
        throw new Error('root is disabled: no EXCHANGE_ROOT_PW (test/setup-env.ts)');
      return rootPassword;
    },
    http: (method, path, requestOptions) => {
      if (!client) throw notStarted();
      return client(method, path, requestOptions);
    },
  };
}
