import * as z from 'zod';

/** Longest id accepted in a path (org, user, node, agbot): upstream's columns are bounded too. */
export const MAX_ID_LENGTH = 256;

/** One path segment naming an org, user, node or agbot. */
export const idSegment = z
  .string()
  .min(1, 'must not be empty')
  .max(MAX_ID_LENGTH, `must be at most ${MAX_ID_LENGTH} characters`)
  .regex(/^[^\s/]+$/, 'must not contain whitespace or a slash');

export const orgPath = z.object({ organization: idSegment });

export const fullId = (org: string, id: string): string => `${org}/${id}`;
