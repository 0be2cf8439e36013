import type * as z from 'zod';
import { badInput } from '../ground/errors.ts';

/**
 * Validates a request body with its schema; the first problem becomes a 400 whose `input` names
 * the field the way upstream's agent does (`device.token`, `node.userinput[0].serviceUrl`, ...).
 */
export function parseBody<S extends z.ZodType>(
  schema: S,
  body: unknown,
  prefix: string,
  what: string,
): z.output<S> {
  if (body === undefined || body === null) {
    throw badInput(`Input body is missing: expected a ${what} object`, prefix || 'body');
  }
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = (issue?.path ?? [])
    .map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`))
    .join('');
  const input = `${prefix}${path}`.replace(/^\./, '') || 'body';
  throw badInput(
    `Input body could not be deserialized to ${what} object: ${issue?.message ?? 'invalid'}`,
    input,
  );
}
