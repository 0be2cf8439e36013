/**
 * Complete user input (docs/protocol.md#compatibility-checks check 12, device nodes): every variable a service declares
 * without a default needs a value, from the deployment policy's (or pattern's) `userInput` or the
 * node's, and every value given must fit the declared type (anax cutil.VerifyWorkloadVarTypes).
 * Run it for the service and for each dependency.
 */
import { type Check, OK } from './constraint-eval.ts';
import type { UserInput } from './policy-document.ts';
import { findFor, type ServiceRef } from './service-match.ts';

/** One entry of a service definition's `userInput` in the Exchange. */
export interface DeclaredInput {
  name: string;
  type?: string;
  defaultValue?: string;
}

export function checkUserInput(
  service: ServiceRef,
  declared: readonly DeclaredInput[] | null | undefined,
  policyInput: readonly UserInput[] | null | undefined,
  nodeInput: readonly UserInput[] | null | undefined,
): Check {
  const variables = (declared ?? []).filter((d) => d.name !== '');
  if (!variables.some((d) => !d.defaultValue)) return OK;
  const fromPolicy = findFor(policyInput, service);
  const fromNode = findFor(nodeInput, service);
  if (!fromPolicy && !fromNode) return { ok: false, reason: 'no user input found for the service' };
  for (const variable of variables) {
    // The node's value wins over the policy's, as when the container's environment is built.
    const given =
      fromNode?.inputs?.find((i) => i.name === variable.name) ??
      fromPolicy?.inputs?.find((i) => i.name === variable.name);
    if (given) {
      const problem = typeProblem(given.value, variable.type ?? '');
      if (problem) return { ok: false, reason: `user input ${variable.name}: ${problem}` };
    } else if (!variable.defaultValue) {
      return { ok: false, reason: `a required user input value is missing for variable ${variable.name}` };
    }
  }
  return OK;
}

function typeProblem(value: unknown, type: string): string | undefined {
  if (typeof value === 'boolean')
    return type === 'bool' || type === 'boolean' ? undefined : `expecting ${type}`;
  if (typeof value === 'string') return type === 'string' || type === '' ? undefined : `expecting ${type}`;
  if (typeof value === 'number') {
    if (type !== 'int' && !type.includes('float')) return `expecting ${type}`;
    return type === 'int' && !Number.isInteger(value) ? 'expecting int' : undefined;
  }
  if (Array.isArray(value))
    return type === 'list of strings' && value.every((v) => typeof v === 'string')
      ? undefined
      : `expecting ${type}`;
  return 'unexpected type';
}
