import { redactValues } from '#lib/log-redaction';

/** What a log line says about an error: its name, message, stack and the chain of its causes. */
interface ErrorDescription {
  name: string;
  message: string;
  stack?: string;
  cause?: ErrorDescription;
}

/** Deep enough for any real chain; stops a cause cycle. */
const MAX_CAUSES = 8;

/**
 * Describes `error` field by field, whitelisted (an SDK error's extra properties may hold items or
 * request data), with the request's secret values cut out of every text.
 */
export function describeError(error: unknown, secrets: readonly string[], depth = 0): ErrorDescription {
  const text = (s: string) => redactValues(s, secrets);
  if (!(error instanceof Error)) return { name: typeof error, message: text(String(error)) };
  const description: ErrorDescription = { name: error.name, message: text(error.message) };
  if (error.stack) description.stack = text(error.stack);
  if (error.cause !== undefined && depth < MAX_CAUSES) {
    description.cause = describeError(error.cause, secrets, depth + 1);
  }
  return description;
}
