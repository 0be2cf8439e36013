/**
 * The dependency checks of a service (docs/protocol.md#compatibility-checks checks 8, 12, 13),
 * shared by the agbot (before it proposes) and `hzn deploycheck` (to explain why it would not):
 * every `requiredServices` entry, recursively, must resolve for the node's arch, and each
 * dependency's user input and secret bindings must be complete, as for the service itself. Where
 * the definitions come from is the caller's (the agbot's round cache, the CLI's Exchange client).
 */
import * as z from 'zod';
import { requiredServicesSchema } from './catalog-records.ts';
import {
  DependencyError,
  flattenDependencies,
  type RequiredService,
  resolveDependencies,
} from './dependencies.ts';
import { parseDeployment } from './deployment.ts';
import type { UserInput } from './policy-document.ts';
import type { SecretBinding } from './secret-binding.ts';
import { type BoundSecretName, resolveSecretBindings, secretsNamedBy } from './secret-binding-check.ts';
import { checkUserInput } from './user-input-check.ts';

/** The fields of a service record the checks read (anything else is kept but ignored). */
export const dependencyDefinition = z
  .object({
    version: z.string(),
    arch: z.string().default(''),
    deployment: z.string().default(''),
    userInput: z
      .array(z.object({ name: z.string(), type: z.string().optional(), defaultValue: z.string().optional() }))
      .nullish(),
    requiredServices: requiredServicesSchema.nullish(),
  })
  .loose();
export type DependencyRecord = z.infer<typeof dependencyDefinition>;

/** The service records of `org/url` as the Exchange lists them (malformed ones left out). */
export const dependencyRecords = (records: Record<string, unknown> | undefined): DependencyRecord[] =>
  Object.values(records ?? {}).flatMap((record) => {
    const parsed = dependencyDefinition.safeParse(record);
    return parsed.success ? [parsed.data] : [];
  });

/** The `requiredServices` of a service record as the Exchange sends it (none when malformed). */
export const requiredServicesOf = (record: unknown): RequiredService[] => {
  const parsed = requiredServicesSchema.safeParse(
    (record as { requiredServices?: unknown } | undefined)?.requiredServices,
  );
  return parsed.success ? parsed.data : [];
};

/**
 * Which check failed: the caller words it (the agbot logs it, deploycheck names its check kind).
 * When all pass, the secrets the dependencies' bindings name (for a caller that checks they exist).
 */
export type DependencyVerdict =
  | { ok: true; bound: BoundSecretName[] }
  | { ok: false; failed: 'resolve' | 'userinput' | 'secretbinding'; reason: string };

/** What to check besides resolution; a check left out (deploycheck's other kinds) is skipped. */
export interface DependencyChecks {
  inputs?: { policy: readonly UserInput[]; node: readonly UserInput[] | null | undefined };
  bindings?: readonly SecretBinding[];
}

export async function checkDependencies(
  service: { org: string; url: string; requiredServices: readonly RequiredService[] },
  nodeArch: string,
  list: (org: string, url: string) => Promise<readonly DependencyRecord[]>,
  checks: DependencyChecks,
): Promise<DependencyVerdict> {
  const bound: BoundSecretName[] = [];
  if (service.requiredServices.length === 0) return { ok: true, bound };
  let tree: Awaited<ReturnType<typeof resolveDependencies<DependencyRecord>>>;
  try {
    tree = await resolveDependencies(service.requiredServices, nodeArch, (org, url) => list(org, url), [
      `${service.org}/${service.url}`,
    ]);
  } catch (error) {
    if (error instanceof DependencyError) return { ok: false, failed: 'resolve', reason: error.message };
    throw error;
  }
  for (const dep of flattenDependencies(tree)) {
    const ref = { org: dep.org, url: dep.url, version: dep.version, arch: dep.arch };
    if (checks.inputs) {
      const { policy, node } = checks.inputs;
      const input = checkUserInput(ref, dep.definition.userInput, policy, node);
      if (!input.ok)
        return {
          ok: false,
          failed: 'userinput',
          reason: `dependency ${dep.org}/${dep.url}: ${input.reason}`,
        };
    }
    if (!checks.bindings) continue;
    let names: string[];
    try {
      names = secretsNamedBy(parseDeployment(dep.definition.deployment));
    } catch (error) {
      return {
        ok: false,
        failed: 'resolve',
        reason: `dependency ${dep.org}/${dep.url} deployment: ${(error as Error).message}`,
      };
    }
    const resolved = resolveSecretBindings(ref, names, checks.bindings);
    if (!resolved.ok) return { ok: false, failed: 'secretbinding', reason: resolved.reason };
    bound.push(...(resolved.bound ?? []));
  }
  return { ok: true, bound };
}
