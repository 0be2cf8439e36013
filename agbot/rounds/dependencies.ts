/**
 * The agbot's dependency checks (docs/protocol.md#compatibility-checks checks 8, 12, 13): every `requiredServices` entry
 * of the chosen service, recursively, must resolve for the node's arch (lib/protocol's rule, the
 * agent's too), and each dependency's user input and secret bindings must be complete, as for the
 * service itself. Dependencies are not put in the T&C (upstream leaves apiSpec empty for policies).
 */
import * as z from 'zod';
import { requiredServicesSchema } from '#lib/protocol/catalog-records';
import type { Check } from '#lib/protocol/constraint-eval';
import {
  DependencyError,
  flattenDependencies,
  type RequiredService,
  resolveDependencies,
} from '#lib/protocol/dependencies';
import { parseDeployment } from '#lib/protocol/deployment';
import type { UserInput } from '#lib/protocol/policy-document';
import type { SecretBinding } from '#lib/protocol/secret-binding';
import { resolveSecretBindings, secretsNamedBy } from '#lib/protocol/secret-binding-check';
import { checkUserInput } from '#lib/protocol/user-input-check';
import type { RoundContext } from './context.ts';

const definition = z
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
type Definition = z.infer<typeof definition>;

/** The `requiredServices` of a service record as the Exchange sends it (none when malformed). */
export const requiredServicesOf = (record: unknown): RequiredService[] => {
  const parsed = requiredServicesSchema.safeParse(
    (record as { requiredServices?: unknown } | undefined)?.requiredServices,
  );
  return parsed.success ? parsed.data : [];
};

export async function checkDependencies(
  ctx: RoundContext,
  cached: <T>(key: string, read: () => Promise<T>) => Promise<T>,
  service: { org: string; url: string; requiredServices: RequiredService[] },
  nodeArch: string,
  inputs: { policy: readonly UserInput[]; node: readonly UserInput[] | null | undefined },
  bindings: readonly SecretBinding[],
): Promise<Check> {
  if (service.requiredServices.length === 0) return { ok: true };
  const list = (org: string, url: string) =>
    cached(`service versions ${org} ${url}`, async (): Promise<Definition[]> => {
      const answer = await ctx.exchange.services(org, { url });
      const records = (answer as { services?: Record<string, unknown> } | undefined)?.services ?? {};
      return Object.values(records).flatMap((r) => {
        const parsed = definition.safeParse(r);
        return parsed.success ? [parsed.data] : [];
      });
    });
  let tree: Awaited<ReturnType<typeof resolveDependencies<Definition>>>;
  try {
    tree = await resolveDependencies(service.requiredServices, nodeArch, list, [
      `${service.org}/${service.url}`,
    ]);
  } catch (error) {
    if (error instanceof DependencyError) return { ok: false, reason: error.message };
    throw error;
  }
  for (const dep of flattenDependencies(tree)) {
    const ref = { org: dep.org, url: dep.url, version: dep.version, arch: dep.arch };
    const input = checkUserInput(ref, dep.definition.userInput, inputs.policy, inputs.node);
    if (!input.ok) return { ok: false, reason: `dependency ${dep.org}/${dep.url}: ${input.reason}` };
    let names: string[] = [];
    try {
      names = secretsNamedBy(parseDeployment(dep.definition.deployment));
    } catch (error) {
      return {
        ok: false,
        reason: `dependency ${dep.org}/${dep.url} deployment: ${(error as Error).message}`,
      };
    }
    const bound = resolveSecretBindings(ref, names, bindings);
    if (!bound.ok) return bound;
  }
  return { ok: true };
}
