import { type AuthCaches, authenticate, verificationCache } from '#lib/auth/authenticate';
import { getConfig } from '#lib/config';
import { endpointWith } from '#lib/http/endpoint';
import { systemClock } from '#lib/time';
import { principalCache } from '#tables/identity/principals';

/**
 * What this function instance remembers between requests: the identities read from the table
 * (forgotten by the table's own writes) and the secrets it verified.
 */
export const instanceAuthCaches: AuthCaches = { principals: principalCache, verified: verificationCache };

/** Every handler's endpoint builder: authentication against the table's principals, the system clock, the live config. */
export const endpoint = endpointWith({
  clock: systemClock,
  config: getConfig,
  authenticate: (authorization) => authenticate(authorization, instanceAuthCaches),
});
