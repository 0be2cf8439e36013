import * as z from 'zod';
import { secretBindingEntry, userInputEntry } from '#functions/deployment-policies/shared/schemas';
import { booleanParam } from '#functions/services/shared/schemas';
import { idSegment } from '#lib/ids';
import { filterParam } from '#lib/like';

/**
 * Request schemas of the deployment pattern endpoints (docs/exchange-catalog.md#pattern-body). Bodies are strict
 * at every level (unknown fields → 400 naming them); `null` counts as absent; every string and list
 * is bounded, so a hostile body is a 400 naming the field, never an item DynamoDB refuses.
 */
const SHORT = 4096;
const LONG = 90_000;
const short = z.string().max(SHORT, `must be at most ${SHORT} characters`);
const long = z.string().max(LONG, `must be at most ${LONG} characters`);
const list = <T extends z.ZodType>(entry: T) => z.array(entry).max(1000, 'must have at most 1000 entries');
const ints = z.record(short, z.number().int());

export const patternsPath = z.object({ organization: idSegment });
export const patternPath = z.object({ organization: idSegment, pattern: idSegment });
export type PatternPath = z.infer<typeof patternPath>;
export const patternKeyPath = patternPath.extend({ keyid: idSegment });

const patternServiceVersion = z.strictObject({
  version: short,
  deployment_overrides: long.nullish(),
  deployment_overrides_signature: long.nullish(),
  priority: ints.nullish(),
  upgradePolicy: z.record(short, short).nullish(),
});

/** One service of a pattern (upstream's PServices). */
export const patternService = z.strictObject({
  serviceUrl: short,
  serviceOrgid: short,
  serviceArch: short,
  agreementLess: z.boolean().nullish(),
  serviceVersions: list(patternServiceVersion),
  dataVerification: z.record(short, z.json()).nullish(),
  nodeHealth: ints.nullish(),
});
export type PatternService = z.infer<typeof patternService>;

const patternFields = {
  label: short,
  description: short.nullish(),
  public: z.boolean().nullish(),
  services: list(patternService),
  userInput: list(userInputEntry).nullish(),
  secretBinding: list(secretBindingEntry).nullish(),
  agreementProtocols: list(z.record(short, short)).nullish(),
  clusterNamespace: short.nullish(),
};

/** POST and PUT (upstream's PostPutPatternRequest). */
export const patternBody = z.strictObject(patternFields);
export type PatternBody = z.infer<typeof patternBody>;

/** PATCH: every field optional; the handler applies the first one present in upstream's order. */
export const patchPatternBody = z.strictObject({
  ...patternFields,
  label: short.nullish(),
  services: list(patternService).nullish(),
});

/** Filters of the org list and of the catalog (LIKE with `%`, else exact). */
const filters = {
  idfilter: filterParam.optional(),
  owner: filterParam.optional(),
  label: filterParam.optional(),
  description: filterParam.optional(),
  clusternamespace: filterParam.optional(),
  public: booleanParam.optional(),
};
export const listPatternsQuery = z.strictObject(filters);
export type ListPatternsQuery = z.infer<typeof listPatternsQuery>;
/** The catalog also filters by org; upstream documents `orgtype` and ignores it. */
export const catalogPatternsQuery = z.strictObject({
  ...filters,
  organization: filterParam.optional(),
  orgtype: short.optional(),
});

export const getPatternQuery = z.strictObject({ attribute: short.optional() });
