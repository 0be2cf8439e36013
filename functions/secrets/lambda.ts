import type { Context } from 'aws-lambda';
import { dispatcher, unrecognizedRoute } from '#functions/dispatch';
import type { LambdaHandler } from '#lib/http/dispatch';
import type { APIGatewayProxyEventV2 } from '#lib/http/lambda-types';
import { handler as deleteSecret } from './delete-secret.ts';
import { handler as getSecret } from './get-secret.ts';
import { handler as listAllSecrets } from './list-all-secrets.ts';
import { handler as listNodeSecrets } from './list-node-secrets.ts';
import { handler as listSecrets } from './list-secrets.ts';
import { handler as listUserNodeSecrets } from './list-user-node-secrets.ts';
import { handler as listUserSecrets } from './list-user-secrets.ts';
import { handler as postSecret } from './post-secret.ts';
import { handler as putSecret } from './put-secret.ts';
import { secretsRoutes } from './routes.ts';
import { secretRequest } from './shared/secret-path.ts';

const dispatch = dispatcher(secretsRoutes, {
  'secrets/list-secrets': listSecrets,
  'secrets/list-all-secrets': listAllSecrets,
  'secrets/list-node-secrets': listNodeSecrets,
  'secrets/list-user-secrets': listUserSecrets,
  'secrets/list-user-node-secrets': listUserNodeSecrets,
  'secrets/get-secret': getSecret,
  'secrets/put-secret': putSecret,
  'secrets/post-secret': postSecret,
  'secrets/delete-secret': deleteSecret,
});

const oneSecret: Record<string, LambdaHandler> = {
  GET: getSecret,
  HEAD: getSecret,
  PUT: putSecret,
  POST: postSecret,
  DELETE: deleteSecret,
};

/**
 * The secrets family's one Lambda. A secret's name may contain `/`, which no exact route can
 * hold, so a request that names one secret (shared/secret-path.ts) goes straight to its method's
 * handler with the whole name as `secret`; the list routes go through the usual dispatcher.
 */
const route: LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => {
  const method = (event.requestContext?.http?.method ?? '').toUpperCase();
  const rawPath = event.rawPath ?? event.requestContext?.http?.path ?? '/';
  const named = secretRequest(method, rawPath, process.env.IS_OFFLINE === 'true');
  if (!named) return dispatch(event, context);
  const run = oneSecret[method] ?? unrecognizedRoute;
  return run({ ...event, pathParameters: named }, context);
};

export const handler = Object.assign(route, { handlers: dispatch.handlers });
