import { open, type SealedValue, seal } from '#lib/secrets/envelope';
import type { KeyProvider, SecretContext } from '#lib/secrets/key-provider';

/**
 * The hub's own agreement bot (docs/agbot.md, "In the stack"): multi-tenant (org IBM), serving
 * every org, created by the first `POST /v1/admin/initdb` and run by the stack's `agbotRound`
 * function. Its token is kept only sealed, in the table, never in an environment variable.
 */
export const BUILT_IN_AGBOT = { org: 'IBM', id: 'agbot' } as const;

/** The sealed token's item: in the agbot's partition, so deleting the agbot deletes it too. */
export const agbotTokenKey = (org: string, id: string) => ({ pk: `AGBOT#${org}/${id}`, sk: 'TOKEN' });

/**
 * The envelope's context. `#` is in no secret name (lib/secrets/names.ts), so a sealed token copied
 * into a secret's item (or a secret into this one) fails its integrity check.
 */
export const agbotTokenContext = (org: string, id: string): SecretContext => ({
  org,
  name: `#agbot-token/${id}`,
});

export const sealAgbotToken = (
  provider: KeyProvider,
  agbot: { org: string; id: string },
  token: string,
): Promise<SealedValue> => seal(provider, token, agbotTokenContext(agbot.org, agbot.id));

export const openAgbotToken = (
  provider: KeyProvider,
  agbot: { org: string; id: string },
  sealed: SealedValue,
): Promise<string> => open(provider, sealed, agbotTokenContext(agbot.org, agbot.id));
