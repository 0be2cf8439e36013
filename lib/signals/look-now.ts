import {
  ApiGatewayManagementApiClient,
  GoneException,
  PostToConnectionCommand,
} from '@aws-sdk/client-apigatewaymanagementapi';
import { LOOK_NOW, signalsUrl } from './address.ts';

let client: { endpoint: string; api: ApiGatewayManagementApiClient } | undefined;

/** API Gateway's management API of the channel: the same address over HTTP(S). */
function managementApi(url: string): ApiGatewayManagementApiClient {
  const endpoint = url.replace(/^ws/, 'http');
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
    // A signal is a hint: a write never waits long for one (at most about a second), nor retries it.
    requestHandler: { connectionTimeout: 500, requestTimeout: 1_000 },
    maxAttempts: 1,
  });
  client = { endpoint, api };
  return api;
}

/**
 * Sends "look now" to each connection; answers the connections API Gateway says are gone (closed
 * without a `$disconnect` reaching us), for the caller to forget. Other failures are left to the
 * listener's next poll, which catches any signal lost in transit.
 */
export async function sendLookNow(connectionIds: string[]): Promise<string[]> {
  const url = signalsUrl();
  if (!url || connectionIds.length === 0) return [];
  const api = managementApi(url);
  const data = new TextEncoder().encode(LOOK_NOW);
  const gone: string[] = [];
  await Promise.all(
    connectionIds.map(async (ConnectionId) => {
      try {
        await api.send(new PostToConnectionCommand({ ConnectionId, Data: data }));
      } catch (error) {
        if (
          error instanceof GoneException ||
          (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 410
        )
          gone.push(ConnectionId);
      }
    }),
  );
  return gone;
}
