import { log } from '#lib/log';
import { describeError } from './describe-error.ts';
import { HttpError } from './errors.ts';
import { requestSecrets } from './request-secrets.ts';
import { json, type Response } from './responses.ts';
import { isUnavailable } from './unavailable.ts';

interface MiddyErrorRequest {
  error: unknown;
  response?: unknown;
  event?: {
    rawPath?: string;
    headers?: Record<string, string | undefined>;
    body?: unknown;
    requestContext?: { requestId?: string; http?: { method?: string } };
  };
  context?: { awsRequestId?: string };
}

/**
 * Maps any thrown error to the upstream `{code, msg}` body; a dependency that cannot be reached
 * (DynamoDB down or not answering in time: `isUnavailable`) becomes a 503 the client may retry,
 * with a warning; other unexpected ones a bare 500 and an error. Either log line is built from
 * whitelisted fields: never the event, its headers or its body. (An `HttpError` is an answer the
 * handler chose, message included, so it is not logged.)
 */
export function handleError(request: MiddyErrorRequest): Response {
  const { error, event } = request;
  let response: Response;
  if (error instanceof HttpError) {
    response = json(error.status, error.body ?? { code: error.code, msg: error.message });
  } else if (isUnavailable(error)) {
    response = json(503, {
      code: 'database-connection-error',
      msg: 'the database is unavailable; retry later',
    });
    log.warn('dependency unavailable', {
      status: response.statusCode,
      method: event?.requestContext?.http?.method,
      path: event?.rawPath,
      request_id: event?.requestContext?.requestId,
      error: describeError(error, requestSecrets(event)),
    });
  } else {
    response = json(500, { code: 'internal_error', msg: 'internal server error' });
    log.error('unhandled error', {
      status: response.statusCode,
      method: event?.requestContext?.http?.method,
      path: event?.rawPath,
      request_id: event?.requestContext?.requestId,
      aws_request_id: request.context?.awsRequestId,
      error: describeError(error, requestSecrets(event)),
    });
  }
  request.response = response;
  return response;
}
