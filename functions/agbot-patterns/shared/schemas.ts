import * as z from 'zod';
import { agbotPath } from '#functions/agbots/shared/schemas';
import { MAX_ID_BYTES, maxUtf8Bytes } from '#lib/ids';

/**
 * Schemas of the agbot's served deployment patterns
 * (docs/exchange.md#served-patterns-and-policies): requests, validated by the handlers, and responses, for the OpenAPI document.
 * The served-policy schemas reuse the shared parts.
 */
const MAX_NAME = 256;
/** An org id or a pattern / policy name in a body (bounded in bytes too: the two make a sort key). */
export const servedName = z
  .string()
  .min(1, 'must not be empty')
  .max(MAX_NAME, `must be at most ${MAX_NAME} characters`)
  .refine(...maxUtf8Bytes(MAX_ID_BYTES));
/** `nodeOrgid`: optional (defaults to the pattern's or policy's org); may be empty. */
export const nodeOrgid = z.string().max(MAX_NAME, `must be at most ${MAX_NAME} characters`).nullish();

/** A served id in a path (`<org>_<name>`), taken verbatim. */
export const servedId = z
  .string()
  .min(1, 'must not be empty')
  .max(2 * MAX_NAME + 1, `must be at most ${2 * MAX_NAME + 1} characters`)
  .refine(...maxUtf8Bytes(2 * MAX_ID_BYTES + 1));

/** A list filter: exact, or SQL LIKE when it contains `%`; an empty value matches empty fields. */
export const servedFilter = z.string().max(MAX_NAME, `must be at most ${MAX_NAME} characters`).optional();

export const patternsPath = agbotPath;
export const patternPath = agbotPath.extend({ deploymentpattern: servedId });
export type PatternPath = z.infer<typeof patternPath>;

export const postPatternBody = z.strictObject({ patternOrgid: servedName, pattern: servedName, nodeOrgid });

export const listPatternsQuery = z.object({
  deployment_pattern: servedFilter,
  deployment_pattern_organization: servedFilter,
  node_organization: servedFilter,
});
export type ListPatternsQuery = z.infer<typeof listPatternsQuery>;

/** One served pattern as GET returns it. */
export const agbotPattern = z.object({
  patternOrgid: z.string(),
  pattern: z.string(),
  nodeOrgid: z.string(),
  lastUpdated: z.string(),
});

/** GET (list and one): keyed by `<patternOrgid>_<pattern>`; no `lastIndex` (as upstream). None → 404 with `{}`. */
export const getAgbotPatternsResponse = z.object({ patterns: z.record(z.string(), agbotPattern) });
