import * as z from 'zod';
import { idSegment } from '#lib/ids';
import { filterParam } from '#lib/like';

/**
 * Request schemas of the agbot endpoints (docs/exchange.md#agbots). Bodies are strict (upstream
 * rejects unknown properties); `null` counts as absent where a field is optional. Lengths are
 * bounded so that a record always fits in one DynamoDB item.
 */
export const agbotPath = z.object({ organization: idSegment, agreementbot: idSegment });
export type AgbotPath = z.infer<typeof agbotPath>;

const MAX_TEXT = 4096;
const MAX_PUBLIC_KEY = 65536;
const text = z.string().max(MAX_TEXT, `must be at most ${MAX_TEXT} characters`);
const publicKey = z.string().max(MAX_PUBLIC_KEY, `must be at most ${MAX_PUBLIC_KEY} characters`);

/** A list filter: exact, or SQL LIKE when it contains `%`. */
const filter = filterParam.optional();

export const listAgbotsQuery = z.object({ idfilter: filter, name: filter, owner: filter });
export type ListAgbotsQuery = z.infer<typeof listAgbotsQuery>;

/** `?attribute=` names (any case); the token reads as masked. */
const AGBOT_ATTRIBUTES = [
  'id',
  'orgid',
  'name',
  'owner',
  'msgEndPoint',
  'lastHeartbeat',
  'publicKey',
  'token',
] as const;
const known = new Set(AGBOT_ATTRIBUTES.map((name) => name.toLowerCase()));

export const getAgbotQuery = z.object({
  attribute: z
    .string()
    .refine((name) => name === '' || known.has(name.toLowerCase()), {
      error: (issue) =>
        `unknown agbot attribute '${String(issue.input)}' (one of: ${AGBOT_ATTRIBUTES.join(', ')})`,
    })
    .optional(),
});

export const putAgbotBody = z.strictObject({
  token: text.min(1, 'the token specified must not be blank'),
  name: text,
  publicKey,
  msgEndPoint: text.nullish(),
});
export type PutAgbotBody = z.infer<typeof putAgbotBody>;

/** Exactly one attribute (checked in the handler, naming them); `null` counts as absent. */
export const patchAgbotBody = z.strictObject({
  token: text.min(1, 'the token can not be set to the empty string').nullish(),
  name: text.nullish(),
  msgEndPoint: text.nullish(),
  publicKey: publicKey.nullish(),
});
export const PATCH_ATTRIBUTES = ['token', 'name', 'msgEndPoint', 'publicKey'] as const;
