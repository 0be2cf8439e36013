import * as z from 'zod';

/** Longest id accepted in a path (org, user, node, agbot): upstream's columns are bounded too. */
export const MAX_ID_LENGTH = 256;

/**
 * Most UTF-8 bytes of one id. A table key holds at most two ids and a short prefix
 * (`MGMTSTATUS#<org>/<policy>`, `OWNS#AGBOT#<org>/<id>`), and DynamoDB refuses a sort key of more
 * than 1024 bytes, so 256 characters of a 3-byte script would not fit; 500 bytes always do.
 */
export const MAX_ID_BYTES = 500;

export const utf8Length = (text: string): number => Buffer.byteLength(text, 'utf8');

/** A zod refinement: at most `max` UTF-8 bytes (what DynamoDB counts in a key). */
export const maxUtf8Bytes = (max: number) =>
  [(text: string) => utf8Length(text) <= max, `must be at most ${max} bytes in UTF-8`] as const;

/** Whether an id (from a path, a body or credentials) fits the table's keys. */
export const idFits = (id: string): boolean => id.length <= MAX_ID_LENGTH && utf8Length(id) <= MAX_ID_BYTES;

/** One path segment naming an org, user, node or agbot. */
export const idSegment = z
  .string()
  .min(1, 'must not be empty')
  .max(MAX_ID_LENGTH, `must be at most ${MAX_ID_LENGTH} characters`)
  .refine(...maxUtf8Bytes(MAX_ID_BYTES))
  .regex(/^[^\s/]+$/, 'must not contain whitespace or a slash');

export const orgPath = z.object({ organization: idSegment });

export const fullId = (org: string, id: string): string => `${org}/${id}`;
