import * as z from 'zod';
import { idFits, idSegment, MAX_ID_LENGTH } from '#lib/ids';
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
 * What a delivery names: `<name>` (of the secret's org) or `<org>/<name>` (of another org whose
 * pattern or policy the agbot serves to the secret's org's nodes).
 */
const sourceName = z
  .string()
  .regex(/^([^\s/]+\/)?[^\s/]+$/, 'must be <name> or <org>/<name>, without whitespace')
  .refine((value) => value.split('/').every(idFits), `each part must be at most ${MAX_ID_LENGTH} characters`);

/**
 * An agbot reads a secret value only to deliver it for one deployment policy or pattern it
 * serves to nodes of the secret's org (the node's org, where upstream's agbot reads every bound
 * secret): `?policy=<name>` or `?pattern=<name>` says which, `<org>/<name>` when it belongs to
 * another org (users ignore it).
 */
export const deliveryQuery = z.object({
  policy: sourceName
    .optional()
    .describe(
      'agbots: the deployment policy (`<name>` of this org, or `<org>/<name>`) the value is delivered for',
    ),
  pattern: sourceName
    .optional()
    .describe(
      'agbots: the deployment pattern (`<name>` of this org, or `<org>/<name>`) the value is delivered for',
    ),
});
export type DeliveryQuery = z.infer<typeof deliveryQuery>;

/** Upstream's stored shape: both strings (may be empty); other fields are ignored. */
export const secretBody = z.object({
  key: z.string(),
  value: z.string(),
});
