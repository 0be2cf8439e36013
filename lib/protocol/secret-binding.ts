/**
 * Secret bindings as they travel between agbot and node (docs/protocol.md#secrets-in-agreements; anax
 * exchangecommon/secret.go): `secretBinding` names the secrets-manager secret for each service
 * secret, `secretDetails` (proposal) and the secret update's `metadata` carry the values, each
 * base64 (standard) of the JSON `{"key":…,"value":…}` read from the secrets manager.
 */
import * as z from 'zod';
import { fromBase64, toBase64 } from './base64.ts';

export const secretBindingSchema = z.object({
  serviceOrgid: z.string(),
  serviceUrl: z.string(),
  /** "" or absent: every arch. */
  serviceArch: z.string().optional(),
  /** "" or absent: every version, else an OSGi range such as [1.0.0,INFINITY). */
  serviceVersionRange: z.string().optional(),
  /** Go's `omitempty`: absent (as the Exchange stores a binding sent without it) means false. */
  enableNodeLevelSecrets: z.boolean().default(false),
  /** Each entry maps a service secret name to a secrets-manager name (binding) or value (details). */
  secrets: z.array(z.record(z.string(), z.string())).nullable(),
});
export type SecretBinding = z.infer<typeof secretBindingSchema>;

export interface SecretValue {
  key: string;
  value: string;
}

const secretValueSchema = z.object({ key: z.string(), value: z.string() });

/** The value carried for one bound secret: Go's json.Marshal of {key, value}, then base64. */
export const encodeSecretValue = (secret: SecretValue): string =>
  toBase64(Buffer.from(JSON.stringify({ key: secret.key, value: secret.value }), 'utf8'));

export class SecretValueError extends Error {
  override name = 'SecretValueError';
}

/** The {key, value} inside a carried secret; the error never repeats the value. */
export function decodeSecretValue(encoded: string): SecretValue {
  const bytes = fromBase64(encoded);
  if (!bytes) throw new SecretValueError('a secret value is not base64');
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new SecretValueError('a secret value is not JSON');
  }
  const parsed = secretValueSchema.safeParse(json);
  if (!parsed.success) throw new SecretValueError('a secret value lacks key or value');
  return parsed.data;
}

export const SECRET_MASK = '********';

/** The bindings with every carried value replaced by upstream's mask, for logs and status views. */
export const maskSecretValues = (bindings: SecretBinding[]): SecretBinding[] =>
  bindings.map((binding) => ({
    ...binding,
    secrets:
      binding.secrets?.map((entry) =>
        Object.fromEntries(Object.keys(entry).map((name) => [name, SECRET_MASK])),
      ) ?? null,
  }));
