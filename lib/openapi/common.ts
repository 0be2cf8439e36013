import * as z from 'zod';
import type { ErrorCode } from '#lib/http/errors';
import type { ResponseDoc } from './route.ts';

/** Pieces every resource's route list uses: the `{code, msg}` body and the usual error answers. */
export const apiResponse = z.object({ code: z.string(), msg: z.string() });

/** The error codes clients match on (lib/http/errors.ts). */
export const errorResponse = z.object({
  code: z.enum([
    'invalid-credentials',
    'access-denied',
    'already-exists',
    'invalid-input',
    'not-found',
    'method-not-allowed',
    'internal_error',
  ] as const satisfies readonly ErrorCode[]),
  msg: z.string(),
});

/** `{code: 'ok', msg}`: what creates and updates answer. */
export const okResponse = (description: string): ResponseDoc => ({ description, schema: apiResponse });

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'bad input: the message names the field',
  401: 'invalid credentials',
  403: 'access denied',
  404: 'not found',
  409: 'already exists',
  429: "the sender's share of the mailbox is used up (limits.maxMessagesPerSender, maxMessageBytesPerSender)",
  500: 'internal error',
  502: "mailbox full (upstream's database-connection-error)",
};

/** The `{code, msg}` error answers of a route, by status. */
export function errors(...statuses: number[]): Record<number, ResponseDoc> {
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      { description: ERROR_DESCRIPTIONS[status] ?? 'error', schema: errorResponse },
    ]),
  );
}

/** Upstream answers an empty list with 404 and the empty collection; a missing target gives `{code, msg}`. */
export const emptyListOrError = (list: z.ZodType): ResponseDoc => ({
  description: 'nothing found: the empty collection, or `{code, msg}` when the target itself is missing',
  schema: z.union([list, errorResponse]),
});

/** What `?attribute=` answers: one attribute, as text. */
export const attributeResponse = z.object({ attribute: z.string(), value: z.string() });
