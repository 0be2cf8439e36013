import { endpoint } from '#lib/http/endpoint';
import { notFound } from '#lib/http/errors';

/**
 * Every path no other function serves. Like upstream, credentials are checked first (401), then
 * the answer is a JSON 404 rather than the gateway's own body.
 */
export const handler = endpoint({
  handle: () => {
    throw notFound('unrecognized route');
  },
});
