import type { Context } from 'aws-lambda';
import type { ResourceDoc, RouteDoc } from '#lib/openapi/route';
import type { APIGatewayProxyEventV2 } from './lambda-types.ts';
import type { Response } from './responses.ts';
import { compileRoutes, MALFORMED_PATH, matchRoute } from './route-match.ts';

/**
 * API Gateway's HTTP API hands Lambda a `rawPath` it has already percent-decoded; serverless-offline
 * (which sets IS_OFFLINE) hands it over still encoded. Decoding twice would turn an id's `%25`
 * into another escape, so only the local stack's path is decoded here.
 */
const rawPathIsEncoded = () => process.env.IS_OFFLINE === 'true';

export type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<Response>;

/** What a request no route matches gets: a path no route serves, a path that is not valid percent-encoding. */
interface Fallbacks {
  unrecognizedRoute: LambdaHandler;
  malformedPath: LambdaHandler;
}

/** The `handler` export of a route's handler module (its entry's `handler: () => import(…)`). */
export async function loadHandler(route: RouteDoc): Promise<LambdaHandler> {
  const module = (await route.handler()) as { handler?: unknown };
  if (typeof module.handler !== 'function')
    throw new Error(`${route.operationId}: its handler module exports no handler`);
  return module.handler as LambdaHandler;
}

/**
 * `route`'s handler, loaded now, as a static import would be, and loaded again on first use if
 * that load failed. A failed load at start is not fatal (nobody may ask for that route, and a
 * process stopping during the loads sees empty modules), so it is never an unhandled rejection.
 */
export function preloadedHandler(route: RouteDoc): () => Promise<LambdaHandler> {
  let loading = loadHandler(route);
  loading.catch(() => undefined);
  return () =>
    loading.catch(() => {
      loading = loadHandler(route);
      return loading;
    });
}

/** The family dispatcher of a deployment whose unmatched requests get `fallbacks` (the Exchange's: functions/dispatch.ts). */
export const dispatcherWith = (fallbacks: Fallbacks) => (routes: ResourceDoc) =>
  dispatcher(routes, fallbacks);

/**
 * A family's one Lambda: API Gateway sends it every request under the family's mounts (some of
 * them `{proxy+}`), so it matches method + rawPath against the family's route list, sets
 * `pathParameters` as the exact route would have (decoded, by name) and runs that route's
 * handler. A path or method the family lacks gets the catch-all's answer (401, else 404). Every
 * handler module of the list is loaded when the Lambda starts, as static imports would be.
 */
function dispatcher(routes: ResourceDoc, { unrecognizedRoute, malformedPath }: Fallbacks) {
  const handlers = routes.routes.map(preloadedHandler);
  const table = compileRoutes(
    routes.routes.map((route, index) => ({ method: route.method, path: route.path, value: index })),
  );
  const dispatch: LambdaHandler = async (event, context) => {
    const http = event.requestContext?.http;
    const match = matchRoute(
      table,
      http?.method ?? '',
      event.rawPath ?? http?.path ?? '/',
      rawPathIsEncoded(),
    );
    if (match === MALFORMED_PATH) return malformedPath(event, context);
    if (!match) return unrecognizedRoute(event, context);
    const handler = await (handlers[match.value] as () => Promise<LambdaHandler>)();
    return handler({ ...event, pathParameters: match.pathParameters }, context);
  };
  return dispatch;
}
