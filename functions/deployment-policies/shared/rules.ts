// The constraint grammar: one implementation, shared with the agent and the agreement protocol.

import { describeMissingService, missingUserInputService } from '#functions/catalog/shared/references';
import { isValidVersion } from '#lib/catalog/version-range';
import { ConstraintError, parseConstraint } from '#lib/policy/constraints';
import { findServiceVersions } from '#tables/service/references';
import type { PolicyService, UserInputEntry } from './schemas.ts';

const anyArch = (arch: string | null | undefined) => !arch || arch === '*';

/** Upstream's checks that need no database, in its order (docs/exchange-catalog.md#policy-body). */
export function policyBodyProblem(body: {
  service?: PolicyService | null;
  constraints?: string[] | null;
}): string | undefined {
  const service = body.service;
  if (service) {
    if (service.serviceVersions.length === 0) return 'no versions specified for service';
    const bad = service.serviceVersions.find((v) => !isValidVersion(v.version));
    if (bad) return `version '${bad.version}' is not valid version format.`;
  }
  for (const [index, constraint] of (body.constraints ?? []).entries()) {
    try {
      parseConstraint(constraint);
    } catch (error) {
      if (!(error instanceof ConstraintError)) throw error;
      return `invalid input: body field 'constraints.${index}': '${constraint.slice(0, 200)}' is not a valid constraint: ${error.message}`;
    }
  }
  return undefined;
}

/**
 * The first referenced service that does not exist (docs/exchange-catalog.md#service-ids-and-references), as upstream's message: each
 * serviceVersions entry of the policy's service (arch `""` or `*` = any), then each userInput entry
 * (any version unless it names a range; arch absent or `""` = any). Services of any org count.
 */
export async function missingReference(
  service: PolicyService | undefined,
  userInput: UserInputEntry[],
): Promise<string | undefined> {
  if (service) {
    const stored = await findServiceVersions(service.org, service.name);
    for (const { version } of service.serviceVersions) {
      const found = stored.some(
        (s) => s.version === version && (anyArch(service.arch) || s.arch === service.arch),
      );
      if (!found) return describeMissingService(service.org, service.name, version, service.arch);
    }
  }
  return missingUserInputService(userInput);
}
