import {
  ApiGatewayManagementApiClient,
  DeleteConnectionCommand,
  GoneException,
  PostToConnectionCommand,
} from '@aws-sdk/client-apigatewaymanagementapi';
import { signalsUrl } from './address.ts';

/**
 * The one place that talks to API Gateway's management API of the signal channel
 * (docs/signals.md): posts "look now" to connections and closes the ones it cannot reach.
 */

/** The pauses before each retry of a post, or of a close: 3 retries within 1.3 s. */
export const RETRY_DELAYS_MS: readonly number[] = [100, 300, 900];

/**
 * The management API's address: the channel's own address over HTTP(S), unless
 * `EXCHANGE_SIGNALS_MANAGEMENT_URL` names another (a test puts a faulty proxy in front of it).
 */
export function managementUrl(): string | undefined {
  const override = process.env.EXCHANGE_SIGNALS_MANAGEMENT_URL;
  if (override) return override;
  return signalsUrl()?.replace(/^ws/, 'http');
}

let client: { endpoint: string; api: ApiGatewayManagementApiClient } | undefined;

function managementApi(endpoint: string): ApiGatewayManagementApiClient {
  if (client?.endpoint === endpoint) return client.api;
  const local = endpoint.startsWith('http://');
  const api = new ApiGatewayManagementApiClient({
    endpoint,
    // serverless-offline's emulation (loopback, plain HTTP) signs nothing and checks nothing.
    ...(local
      ? {
          region: process.env.AWS_REGION ?? 'local',
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        }
      : {}),
    // Each call is short; the retries are ours (RETRY_DELAYS_MS), so that a 410 is never retried.
    requestHandler: { connectionTimeout: 500, requestTimeout: 1_000 },
    maxAttempts: 1,
  });
  client = { endpoint, api };
  return api;
}

/** What became of each connection signalled. */
export interface LookNowOutcome {
  /** Posted, at the first attempt or a retry. */
  delivered: string[];
  /** API Gateway says the connection is gone (410, on a post or on the close): forget it. */
  gone: string[];
  /**
   * Every post failed, so the connection was closed: forget it. Its client reconnects at once and
   * polls on the open, so the signal it missed costs seconds.
   */
  closed: string[];
  /** Neither posted nor closed (the management API is unreachable): the caller must try again. */
  failed: { connectionId: string; error: string }[];
  /** Posts and closes sent again after a failure. */
  retries: number;
}

export interface LookNowOptions {
  retryDelaysMs?: readonly number[];
  sleep?: (ms: number) => Promise<void>;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const statusOf = (error: unknown) =>
  (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;

const describe = (error: Error) => `${error.name}${statusOf(error) ? ` (HTTP ${statusOf(error)})` : ''}`;

const isGone = (error: unknown) => error instanceof GoneException || statusOf(error) === 410;

/**
 * Sends each connection its signal ("look now" or "mail now", lib/signals/address.ts): each post
 * retried after RETRY_DELAYS_MS; a connection whose posts all failed is closed (DeleteConnection,
 * retried the same way). Never throws: the outcome says which connections to forget and which
 * could be neither signalled nor closed.
 */
export async function sendSignals(
  signals: { connectionId: string; message: string }[],
  options: LookNowOptions = {},
): Promise<LookNowOutcome> {
  const outcome: LookNowOutcome = { delivered: [], gone: [], closed: [], failed: [], retries: 0 };
  const endpoint = managementUrl();
  if (!endpoint || signals.length === 0) return outcome;
  const api = managementApi(endpoint);
  const delays = options.retryDelaysMs ?? RETRY_DELAYS_MS;
  const sleep = options.sleep ?? pause;
  const encoder = new TextEncoder();

  /** One call with its retries: done, gone (410, never retried) or failed with the last error. */
  async function withRetries(call: () => Promise<unknown>): Promise<'done' | 'gone' | Error> {
    for (let attempt = 0; ; attempt++) {
      try {
        await call();
        return 'done';
      } catch (error) {
        if (isGone(error)) return 'gone';
        const delay = delays[attempt];
        if (delay === undefined) return error as Error;
        outcome.retries += 1;
        await sleep(delay);
      }
    }
  }

  await Promise.all(
    [...new Map(signals.map((s) => [s.connectionId, s.message]))].map(async ([ConnectionId, message]) => {
      const Data = encoder.encode(message);
      const posted = await withRetries(() => api.send(new PostToConnectionCommand({ ConnectionId, Data })));
      if (posted === 'done') return outcome.delivered.push(ConnectionId);
      if (posted === 'gone') return outcome.gone.push(ConnectionId);
      const closed = await withRetries(() => api.send(new DeleteConnectionCommand({ ConnectionId })));
      if (closed === 'done') return outcome.closed.push(ConnectionId);
      if (closed === 'gone') return outcome.gone.push(ConnectionId);
      return outcome.failed.push({
        connectionId: ConnectionId,
        error: `post: ${describe(posted)}; close: ${describe(closed)}`,
      });
    }),
  );
  return outcome;
}
