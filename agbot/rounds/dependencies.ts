/**
 * The agbot's dependency checks: the shared rule (lib/protocol/dependency-check.ts, which
 * `hzn deploycheck` applies too) over the round's cached service listings.
 */
import type { Check } from '#lib/protocol/constraint-eval';
import type { RequiredService } from '#lib/protocol/dependencies';
import {
  checkDependencies as checkDependencyRule,
  type DependencyRecord,
  dependencyRecords,
} from '#lib/protocol/dependency-check';
import type { UserInput } from '#lib/protocol/policy-document';
import type { SecretBinding } from '#lib/protocol/secret-binding';
import type { RoundContext } from './context.ts';

export async function checkDependencies(
  ctx: RoundContext,
  cached: <T>(key: string, read: () => Promise<T>) => Promise<T>,
  service: { org: string; url: string; requiredServices: RequiredService[] },
  nodeArch: string,
  inputs: { policy: readonly UserInput[]; node: readonly UserInput[] | null | undefined },
  bindings: readonly SecretBinding[],
): Promise<Check> {
  const list = (org: string, url: string) =>
    cached(`service versions ${org} ${url}`, async (): Promise<DependencyRecord[]> => {
      const answer = await ctx.exchange.services(org, { url });
      return dependencyRecords((answer as { services?: Record<string, unknown> } | undefined)?.services);
    });
  const verdict = await checkDependencyRule(service, nodeArch, list, { inputs, bindings });
  return verdict.ok ? { ok: true } : { ok: false, reason: verdict.reason };
}
