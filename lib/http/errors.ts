/**
 * Typed errors thrown by handlers and mapped once, by the error middleware, to the upstream
 * `{code, msg}` body. The code strings are the ones Open Horizon clients match on.
 */
export type ErrorCode =
  | 'invalid-credentials'
  | 'access-denied'
  | 'already-exists'
  | 'invalid-input'
  | 'not-found'
  | 'method-not-allowed'
  | 'internal_error'
  /** Upstream's code for every 502, a full mailbox included. */
  | 'database-connection-error';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    /** A body to send instead of `{code, msg}` (upstream's empty-list 404s). */
    readonly body?: unknown,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badInput = (msg: string) => new HttpError(400, 'invalid-input', msg);
export const unauthorized = (msg: string) => new HttpError(401, 'invalid-credentials', msg);
export const accessDenied = (msg: string) => new HttpError(403, 'access-denied', msg);
export const notFound = (msg: string) => new HttpError(404, 'not-found', msg);
export const alreadyExists = (msg: string) => new HttpError(409, 'already-exists', msg);

/** Upstream answers a list that found nothing with 404 and the normal, empty, list body. */
export const emptyList = (body: unknown) => new HttpError(404, 'not-found', 'not found', body);
