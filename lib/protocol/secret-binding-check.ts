/**
 * Resolvable secret bindings (docs/protocol.md#compatibility-checks check 13): every secret a service's containers name
 * (`secrets` in the deployment) must be bound by the deployment policy or pattern, through a
 * binding for that service (arch "", "*" or equal; version in range). Whether the bound secret
 * exists in the secrets manager is the agbot's own read; this decides which name to read.
 */

import type { Check } from './constraint-eval.ts';
import type { Deployment } from './deployment.ts';
import type { SecretBinding } from './secret-binding.ts';
import { findFor, type ServiceRef } from './service-match.ts';

export interface BoundSecretName {
  /** The name the service uses (its file under /platform-secrets). */
  serviceSecret: string;
  /** The secrets-manager name the binding gives it. */
  managerSecret: string;
  binding: SecretBinding;
}

/** The secret names a deployment's containers ask for (parsed by the agent's `parseDeployment`). */
export const secretsNamedBy = (deployment: Deployment): string[] => [
  ...new Set(Object.values(deployment.services).flatMap((s) => Object.keys(s.secrets ?? {}))),
];

export function resolveSecretBindings(
  service: ServiceRef,
  secretNames: readonly string[],
  bindings: readonly SecretBinding[] | null | undefined,
): Check & { bound?: BoundSecretName[] } {
  if (secretNames.length === 0) return { ok: true, bound: [] };
  const binding = findFor(bindings, service, ['', '*']);
  if (!binding) return { ok: false, reason: `no secret binding for service ${service.org}/${service.url}` };
  const bound: BoundSecretName[] = [];
  for (const name of secretNames) {
    const entry = binding.secrets?.find((e) => name in e);
    const managerSecret = entry?.[name];
    if (!managerSecret)
      return { ok: false, reason: `secret ${name} of service ${service.org}/${service.url} is not bound` };
    bound.push({ serviceSecret: name, managerSecret, binding });
  }
  return { ok: true, bound };
}
