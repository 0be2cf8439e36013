import { badInput } from '#lib/http/errors';
import { parseSecretName, type SecretName } from '#lib/secrets/names';

/** The path's secret name, parsed; 400 with the reason for a bad form (docs/exchange-catalog.md#secret-names). */
export function secretNameOrThrow(name: string): SecretName {
  const parsed = parseSecretName(name);
  if ('error' in parsed) throw badInput(`invalid input: ${parsed.error}`);
  return parsed;
}

/** The node a secret is bound to (gsi1, for the node's cascade), if any. */
export const boundNode = (name: SecretName): string | undefined =>
  name.kind === 'orgNode' || name.kind === 'userNode' ? name.node : undefined;
