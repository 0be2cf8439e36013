import { getConfig } from '#lib/config';
import { unauthorized } from '#lib/http/errors';
import { idFits } from '#lib/ids';
import { parseBasicAuth } from './basic.ts';
import { type Caller, ROOT_CALLER } from './caller.ts';
import type { PrincipalCache } from './principal-cache.ts';
import { hashSecret, safeEqual, VerificationCache } from './secrets.ts';

/**
 * Shared by every request of this process: a warm request does not re-hash a secret it verified
 * within `authVerifiedSeconds`. Up to 100,000 entries (about 15 MB): a fleet of 10,000 nodes
 * that each call once every few minutes is hashed once an hour per instance, not at each call.
 */
export const verificationCache = new VerificationCache(() => getConfig().authVerifiedSeconds * 1000, 100_000);

/** The stored form of a new password or token, remembered as verified by this process. */
export async function hashCredential(secret: string): Promise<string> {
  const stored = await hashSecret(secret);
  verificationCache.remember(stored, secret);
  return stored;
}

const INVALID = 'invalid.credentials';

/**
 * What one function instance remembers between requests (a test builds a second instance). The
 * principals come from the caller's store (the Exchange's table: functions/endpoint.ts), so this
 * rule knows nothing of where identities are kept.
 */
export interface AuthCaches {
  principals: Pick<PrincipalCache, 'lookup' | 'reread'>;
  verified: VerificationCache;
}

/**
 * Resolves Basic credentials to a caller or throws 401: upstream's "unauthorized" for an unknown
 * id and "invalid.credentials" for a wrong secret or an unusable header.
 */
export async function authenticate(authorization: string | undefined, caches: AuthCaches): Promise<Caller> {
  const credentials = parseBasicAuth(authorization);
  if (!credentials) throw unauthorized(INVALID);
  const { org, id, secret } = credentials;
  // Checked before any data call: an oversized id is a key DynamoDB refuses (a 500, not a 401).
  if (!idFits(org) || !idFits(id)) throw unauthorized(INVALID);
  if (org === 'root' && id === 'root') {
    const { rootEnabled, rootPassword } = getConfig();
    if (!rootEnabled || !rootPassword || !safeEqual(secret, rootPassword)) throw unauthorized(INVALID);
    return ROOT_CALLER;
  }
  // The identity may be remembered; the secret is checked against its hash on every request.
  const principal = await verifiedPrincipal(org, id, secret, caches);
  const fullId = `${org}/${id}`;
  switch (principal.kind) {
    case 'user':
      return { kind: 'user', org, id, fullId, admin: principal.admin, hubAdmin: principal.hubAdmin };
    case 'node':
      return {
        kind: 'node',
        org,
        id,
        fullId,
        owner: principal.owner,
        ...(principal.publicKey === undefined ? {} : { publicKey: principal.publicKey }),
      };
    case 'agbot':
      return { kind: 'agbot', org, id, fullId, owner: principal.owner };
  }
}

/**
 * The principal `org/id` whose hash `secret` matches, or a 401. A secret that fails against a
 * remembered record is checked once more against a fresh read: the record may have been replaced
 * on another instance (deleted and re-created, or given a new secret), which this instance would
 * otherwise refuse until its entry expires. A wrong secret costs at most that one extra read, and
 * no second hash when the record read is unchanged.
 */
async function verifiedPrincipal(org: string, id: string, secret: string, caches: AuthCaches) {
  const { principal, remembered } = await caches.principals.lookup(org, id);
  if (!principal) throw unauthorized('unauthorized');
  if (await caches.verified.verify(principal.secretHash, secret)) return principal;
  if (!remembered) throw unauthorized(INVALID);
  const fresh = await caches.principals.reread(org, id);
  if (!fresh) throw unauthorized('unauthorized');
  if (fresh.secretHash === principal.secretHash) throw unauthorized(INVALID);
  if (await caches.verified.verify(fresh.secretHash, secret)) return fresh;
  throw unauthorized(INVALID);
}
