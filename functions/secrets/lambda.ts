import type { Context } from 'aws-lambda';
import { dispatcher, unrecognizedRoute } from '#functions/dispatch';
import { type LambdaHandler, preloadedHandler } from '#lib/http/dispatch';
import type { APIGatewayProxyEventV2 } from '#lib/http/lambda-types';
import { secretsRoutes } from './routes.ts';
import { secretRequest } from './shared/secret-path.ts';

const dispatch = dispatcher(secretsRoutes);

/** The handlers of `/v1/orgs/{organization}/secrets/{secret}` by method (HEAD is answered as GET). */
const oneSecret = new Map(
  secretsRoutes.routes
    .filter((route) => route.path === '/v1/orgs/{organization}/secrets/{secret}')
    .map((route) => [route.method as string, preloadedHandler(route)]),
);

/**
 * The secrets family's one Lambda. A secret's name may contain `/`, which no exact route can
 * hold, so a request that names one secret (shared/secret-path.ts) goes straight to its method's
 * handler with the whole name as `secret`; the list routes go through the usual dispatcher.
 */
export const handler: LambdaHandler = async (event: APIGatewayProxyEventV2, context: Context) => {
  const method = (event.requestContext?.http?.method ?? '').toUpperCase();
  const rawPath = event.rawPath ?? event.requestContext?.http?.path ?? '/';
  const named = secretRequest(method, rawPath, process.env.IS_OFFLINE === 'true');
  if (!named) return dispatch(event, context);
  const run = oneSecret.get(method === 'HEAD' ? 'GET' : method);
  if (!run) return unrecognizedRoute(event, context);
  return (await run())({ ...event, pathParameters: named }, context);
};
