import { parseBasicAuth } from '#lib/auth/basic';
import { type Caller, ROOT_CALLER } from '#lib/auth/caller';
import { VerificationCache } from '#lib/auth/secrets';
import type { Deps } from '#lib/http/endpoint';
import { accessDenied, unauthorized } from '#lib/http/errors';
import { consumeDropToken, loadDropToken } from '#tables/admin/drop-token';

/** Never cached: a consumed token must fail on the very next request. */
const tokenCheck = new VerificationCache(() => 0);

/**
 * Authenticates `POST /v1/admin/dropdb`: `root/root` with the unexpired drop token as password,
 * consumed (conditional delete) so it works once; root's real password is not enough. Any other
 * identity is authenticated normally (401 when wrong) and then refused (403).
 */
export async function authenticateWithDropToken(
  authorization: string | undefined,
  deps: Deps,
): Promise<Caller> {
  const credentials = parseBasicAuth(authorization);
  if (!credentials) throw unauthorized('invalid.credentials');
  if (credentials.org !== 'root' || credentials.id !== 'root') {
    const caller = await deps.authenticate(authorization);
    throw accessDenied(
      `Access denied: '${caller.fullId}' does not have authorization: ADMIN action= (dropdb needs root/root with a drop token)`,
    );
  }
  const stored = await loadDropToken(deps.clock.now());
  if (!stored || !(await tokenCheck.verify(stored.tokenHash, credentials.secret))) {
    throw unauthorized('invalid.credentials');
  }
  if (!(await consumeDropToken(stored.tokenHash))) throw unauthorized('invalid.credentials');
  return ROOT_CALLER;
}
