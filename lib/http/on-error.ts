import { log } from '#lib/log';
import { HttpError } from './errors.ts';
import { json, type Response } from './responses.ts';

interface MiddyErrorRequest {
  error: unknown;
  response?: unknown;
  event?: { rawPath?: string; requestContext?: { http?: { method?: string } } };
}

/** Maps any thrown error to the upstream `{code, msg}` body; unexpected ones become a bare 500. */
export function handleError(request: MiddyErrorRequest): Response {
  const { error } = request;
  let response: Response;
  if (error instanceof HttpError) {
    response = json(error.status, error.body ?? { code: error.code, msg: error.message });
  } else {
    log.error('unhandled error', {
      method: request.event?.requestContext?.http?.method,
      path: request.event?.rawPath,
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    });
    response = json(500, { code: 'internal_error', msg: 'internal server error' });
  }
  request.response = response;
  return response;
}
