import * as z from 'zod';

/** Upstream's legal-character rule for ids, orgs, patterns and names (letters, digits and a few symbols). */
const LEGAL = /^[-*+()?&! \w.@,:/\\\p{L}\p{N}]*$/u;
export const legal = z
  .string()
  .regex(LEGAL, 'Value violates regex illegal char match: [^-*+()?&! _\\w\\d.@,:/\\\\\\pL\\pN]');

/** Node ids and orgs: the Exchange's bound (a longer one could only be refused there). */
const MAX_ID_LENGTH = 256;
const identity = legal.max(MAX_ID_LENGTH, `must be at most ${MAX_ID_LENGTH} characters`);

/** POST /node (HorizonDevice). Unknown fields are ignored, as upstream's agent does. */
export const registerBody = z.object({
  id: identity.optional(),
  organization: identity.min(1, 'must not be empty'),
  pattern: legal.optional(),
  name: legal.optional(),
  nodeType: z.enum(['device', 'cluster']).optional(),
  token: z.string().min(1, 'must not be empty'),
});

/** PATCH /node: a new token for the registered node. */
export const tokenBody = z.object({
  id: identity.min(1, 'must not be empty'),
  token: z.string().min(1, 'must not be empty'),
  organization: identity.optional(),
});

const flag = z.enum(['', 'true', 'false']).optional();

/** DELETE /node query; each flag is exactly "", "true" or "false". */
export const unregisterQuery = z.object({ block: flag, removeNode: flag, deepClean: flag });
