/**
 * Catalog records as the agbot and the agent read them from the Exchange (a peer: a record of
 * another shape is skipped, never trusted). One reading of a pattern for both sides.
 */
import * as z from 'zod';
import { userInputSchema } from './policy-document.ts';
import { secretBindingSchema } from './secret-binding.ts';

/** A list whose malformed entries are dropped (upstream may hold entries we cannot use). */
export const lenientList = <T extends z.ZodType>(item: T) =>
  z
    .array(z.unknown())
    .nullish()
    .transform((items) => (items ?? []).flatMap((i) => (item.safeParse(i).success ? [item.parse(i)] : [])));

export const serviceVersion = z.object({
  version: z.string(),
  priority: z
    .object({
      priority_value: z.number().int().optional(),
      retries: z.number().int().optional(),
      retry_durations: z.number().int().optional(),
      verified_durations: z.number().int().optional(),
    })
    .loose()
    .nullish(),
});
export type ServiceVersion = z.infer<typeof serviceVersion>;

export const nodeHealth = z
  .object({
    missing_heartbeat_interval: z.number().int().optional(),
    check_agreement_status: z.number().int().optional(),
  })
  .nullish();

/** The `requiredServices` of a service definition, as the Exchange lists them. */
export const requiredServicesSchema = z.array(
  z
    .object({
      org: z.string(),
      url: z.string(),
      // No `version` when only a range was given (null from older Exchanges of this project).
      version: z.string().nullish(),
      versionRange: z.string().nullish(),
      arch: z.string().nullish(),
    })
    .loose(),
);

/** One service of a pattern (docs/exchange-catalog.md#pattern-body PService). */
export const patternService = z.object({
  serviceUrl: z.string(),
  serviceOrgid: z.string(),
  serviceArch: z.string(),
  agreementLess: z.boolean().nullish(),
  serviceVersions: lenientList(serviceVersion),
  nodeHealth,
});
export type PatternService = z.infer<typeof patternService>;

export const patternRecord = z.object({
  services: lenientList(patternService),
  userInput: lenientList(userInputSchema),
  secretBinding: lenientList(secretBindingSchema),
  lastUpdated: z.string().optional(),
});
export type PatternRecord = z.infer<typeof patternRecord>;

/** Highest priority (lowest `priority_value`) first, then as listed. */
export function byPriority<
  T extends { priority?: { priority_value?: number | undefined } | null | undefined },
>(entries: readonly T[]): T[] {
  return entries
    .map((entry, index) => ({
      entry,
      index,
      rank: entry.priority?.priority_value ?? Number.MAX_SAFE_INTEGER,
    }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map((ranked) => ranked.entry);
}

/**
 * The versions to try, highest priority (lowest priority_value) first, then as listed: a pattern
 * service's or a deployment policy's `service`.
 */
export const versionsByPriority = (service: {
  serviceVersions: readonly z.infer<typeof serviceVersion>[];
}): string[] => byPriority(service.serviceVersions).map((v) => v.version);
