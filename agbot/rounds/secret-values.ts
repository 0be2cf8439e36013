/**
 * Bound secret values (reference §1.4 check 13, §4): which secrets-manager names a binding gives
 * a node, read through the Exchange's secrets API (the agbot delivery rule), and the
 * `secretDetails` / update `metadata` that carry them. Values live only in memory for the time
 * of one message and go straight into the sealed envelope: never logged, never stored.
 */
import { encodeSecretValue, type SecretBinding } from '#lib/protocol/secret-binding';
import type { AgreementDetails } from '../store.ts';
import type { RoundContext } from './context.ts';
import { secretValue } from './wire.ts';

/**
 * The names to try for a bound secret, most specific first: with `enableNodeLevelSecrets` the
 * node's own secret (`node/<n>/x`, `user/<u>/node/<n>/x`), then the org or user secret.
 */
export function secretCandidates(managerSecret: string, nodeId: string, nodeLevel: boolean): string[] {
  const name = managerSecret.replace(/^\/+/, '');
  if (!nodeLevel) return [name];
  const user = /^user\/([^/]+)\/(.+)$/.exec(name);
  return [user ? `user/${user[1]}/node/${nodeId}/${user[2]}` : `node/${nodeId}/${name}`, name];
}

/** The first candidate that exists, as upstream's `{key, value}`; undefined when none does. */
export async function readSecret(
  ctx: RoundContext,
  org: string,
  candidates: string[],
): Promise<{ key: string; value: string } | undefined> {
  for (const name of candidates) {
    const parsed = secretValue.safeParse(await ctx.exchange.secret(org, name));
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
  org: string,
  bindings: SecretBinding[],
  secrets: AgreementDetails['secrets'],
): Promise<SecretBinding[] | undefined> {
  const byBinding = new Map<number, Record<string, string>>();
  for (const secret of secrets) {
    const value = await readSecret(ctx, org, secret.candidates);
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
