import * as z from 'zod';
import { idSegment } from '#lib/ids';
import { MAX_SECRET_NAME_LENGTH } from '#lib/secrets/names';

/** Request schemas of the secrets manager's routes (issue 12; docs/exchange-catalog.md#secrets-manager). */

/** The most a PUT/POST body may hold (bytes, as sent). */
export const MAX_SECRET_BODY_BYTES = 64 * 1024;

export const orgPath = z.object({ organization: idSegment });
/** `secret` may contain `/` (the family's dispatcher keeps the whole rest of the path in it); names.ts checks it. */
export const secretPath = orgPath.extend({
  secret: z
    .string()
    .describe(`the full name, \`[A-Za-z0-9_/-]\`, at most ${MAX_SECRET_NAME_LENGTH} characters`),
});
export const nodeTreePath = orgPath.extend({ node: idSegment });
export const userTreePath = orgPath.extend({ user: idSegment });
export const userNodeTreePath = orgPath.extend({ user: idSegment, node: idSegment });

export const listQuery = z.object({
  details: z
    .enum(['true', 'false'])
    .optional()
    .describe('`true`: entries are `{name, lastUpdated}` instead of names'),
});
export type ListQuery = z.infer<typeof listQuery>;

/**
 * An agbot reads a secret value only to deliver it for one deployment policy or pattern of the
 * secret's org that it serves: `?policy=<name>` or `?pattern=<name>` says which (users ignore it).
 */
export const deliveryQuery = z.object({
  policy: idSegment
    .optional()
    .describe('agbots: the deployment policy of this org the value is delivered for'),
  pattern: idSegment
    .optional()
    .describe('agbots: the deployment pattern of this org the value is delivered for'),
});
export type DeliveryQuery = z.infer<typeof deliveryQuery>;

/** Upstream's stored shape: both strings (may be empty); other fields are ignored. */
export const secretBody = z.object({
  key: z.string(),
  value: z.string(),
});
