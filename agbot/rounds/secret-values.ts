/**
 * Bound secret values (docs/protocol.md#compatibility-checks check 13, docs/protocol.md#secrets-in-agreements): which secrets-manager names a binding gives
 * a node, read through the Exchange's secrets API for the policy or pattern that binds them, and the
 * `secretDetails` / update `metadata` that carry them. Values live only in memory for the time
 * of one message and go straight into the sealed envelope: never logged, never stored.
 */

import type { AgreementDetails } from '#lib/agbot-store/contract';
import { encodeSecretValue, type SecretBinding } from '#lib/protocol/secret-binding';
import { nodeLevelCandidates, nodeMayReceive } from '#lib/secrets/binding-rule';
import type { SecretSource } from '../exchange.ts';
import type { RoundContext } from './context.ts';
import { secretValue } from './wire.ts';

/**
 * The names to try for a bound secret on one node, most specific first (node-level names with
 * `enableNodeLevelSecrets`), without names of another node's secrets: those are delivered only in
 * an agreement with their own node (lib/secrets/binding-rule.ts).
 */
export function secretCandidates(
  managerSecret: string,
  source: SecretSource,
  node: { org: string; id: string },
  nodeLevel: boolean,
): string[] {
  return nodeLevelCandidates(managerSecret, node.id, nodeLevel).filter((name) =>
    nodeMayReceive(name, source.org, node.org, node.id),
  );
}

/** The first candidate that exists, as upstream's `{key, value}`; undefined when none does. */
export async function readSecret(
  ctx: RoundContext,
  source: SecretSource,
  candidates: string[],
): Promise<{ key: string; value: string } | undefined> {
  for (const name of candidates) {
    const parsed = secretValue.safeParse(await ctx.exchange.secret(source, name));
    if (parsed.success) return parsed.data;
  }
  return undefined;
}

/**
 * The bindings with values for the named secrets only (the proposal's `secretDetails`, or a
 * secret update's `metadata`); undefined when a bound secret cannot be read.
 */
export async function secretsWithValues(
  ctx: RoundContext,
  source: SecretSource,
  bindings: SecretBinding[],
  secrets: AgreementDetails['secrets'],
): Promise<SecretBinding[] | undefined> {
  const byBinding = new Map<number, Record<string, string>>();
  for (const secret of secrets) {
    const value = await readSecret(ctx, source, secret.candidates);
    if (!value) return undefined;
    const entries = byBinding.get(secret.bindingIndex) ?? {};
    entries[secret.serviceSecret] = encodeSecretValue(value);
    byBinding.set(secret.bindingIndex, entries);
  }
  return [...byBinding].map(([index, entries]) => ({
    ...(bindings[index] as SecretBinding),
    secrets: Object.entries(entries).map(([name, value]) => ({ [name]: value })),
  }));
}
