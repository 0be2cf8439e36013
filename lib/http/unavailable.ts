/**
 * Whether an error says a service the handler depends on (DynamoDB, KMS, the object store) could
 * not be reached or did not answer in time, rather than refusing the request: a connection
 * refused, reset or timed out (the SDK's `TimeoutError` from the client's bounded timeouts,
 * tables/client.ts), or the service's own "busy" and "unavailable" answers after the SDK's
 * retries. Such a request answers 503 (`handleError`), which the client may retry.
 */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

const UNAVAILABLE_NAMES = new Set([
  'TimeoutError',
  'ServiceUnavailable',
  'ServiceUnavailableException',
  'InternalServerError',
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  // The change feed's numbering did not catch up with a backlog of writes in time
  // (tables/feed/changes.ts): nothing was read or written, and a retry reads on.
  'FeedNumberingTimeout',
]);

/** How deep to follow `cause` and `errors` (an AggregateError of both address families). */
const MAX_DEPTH = 4;

export function isUnavailable(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > MAX_DEPTH) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
  if (UNAVAILABLE_NAMES.has(error.name)) return true;
  if (error.cause !== undefined && isUnavailable(error.cause, depth + 1)) return true;
  const inner = (error as { errors?: unknown }).errors;
  return Array.isArray(inner) && inner.some((e) => isUnavailable(e, depth + 1));
}
