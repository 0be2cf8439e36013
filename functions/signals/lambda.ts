import { instanceAuthCaches } from '#functions/endpoint';
import { authenticate } from '#lib/auth/authenticate';
import { HttpError } from '#lib/http/errors';
import { log } from '#lib/log';
import { SIGNALS_ACCEPT_HEADER } from '#lib/signals/address';
import { recordConnected } from '#tables/node/liveness';
import { addConnection, forgetConnection } from '#tables/signals/connections';

/**
 * The signal channel's one Lambda (docs/signals.md), behind API Gateway's WebSocket API:
 * `$connect` authenticates the caller as the HTTP API does (Basic credentials in the upgrade
 * request) and records the connection of a node or an agbot (for a node, also its liveness, and
 * whether it asked for "mail now");
 * `$disconnect` forgets it; anything the client sends (`$default`) is a keepalive. Nothing is ever
 * sent on the connection but "look now" or "mail now" (functions/signals/dispatch.ts).
 */
interface WebSocketEvent {
  requestContext: { routeKey: string; connectionId: string };
  headers?: Record<string, string | undefined>;
}

const status = (statusCode: number, message?: string) => ({
  statusCode,
  ...(message ? { body: JSON.stringify({ code: statusCode, msg: message }) } : {}),
});

const header = (event: WebSocketEvent, name: string): string | undefined =>
  Object.entries(event.headers ?? {}).find(([key]) => key.toLowerCase() === name)?.[1];

export async function handler(event: WebSocketEvent) {
  const { routeKey, connectionId } = event.requestContext;
  try {
    switch (routeKey) {
      case '$connect':
        return await connect(event, connectionId);
      case '$disconnect':
        // From now on a node's liveness is the time it left.
        await forgetConnection(connectionId);
        return status(200);
      default:
        // A keepalive: it only keeps API Gateway from closing an idle connection (10 minutes). It
        // costs no data call: the open connection is the node's liveness (tables/node/liveness.ts).
        return status(200);
    }
  } catch (error) {
    if (error instanceof HttpError) return status(error.status, error.message);
    log.error('signal channel failure', { route: routeKey, error: (error as Error).message });
    return status(500, 'internal error');
  }
}

/** Nodes and agbots may listen; a user has nothing to hear (403). */
async function connect(event: WebSocketEvent, connectionId: string) {
  const caller = await authenticate(header(event, 'authorization'), instanceAuthCaches);
  if (caller.kind !== 'node' && caller.kind !== 'agbot')
    return status(403, 'only nodes and agbots listen for signals');
  const now = new Date();
  const hearsMail = header(event, SIGNALS_ACCEPT_HEADER.toLowerCase())
    ?.split(',')
    .some((value) => value.trim() === 'mail');
  await addConnection(connectionId, { kind: caller.kind, org: caller.org, id: caller.id }, now, {
    hearsMail,
  });
  if (caller.kind === 'node') await recordConnected(caller.org, caller.id, connectionId, now.toISOString());
  return status(200);
}
