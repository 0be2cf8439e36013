import { endpoint } from '#lib/http/endpoint';
import { badInput } from '#lib/http/errors';
import { ok } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { putServiceKey } from '#tables/service-children';
import { authorizeService, serviceNotFound } from './access.ts';
import { keyPath, MAX_KEY_LENGTH } from './schemas.ts';

/**
 * PUT /v1/orgs/{organization}/services/{service}/keys/{keyid}: whoever may write the service. The
 * body is the key or certificate itself (any content type, as upstream), stored verbatim.
 */
export const handler = endpoint({
  path: keyPath,
  authorize: ({ caller, path }) => authorizeService(caller, path, 'WRITE'),
  async handle({ path, target, event, deps }) {
    const raw = typeof event.body === 'string' ? event.body : '';
    const key = event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw;
    if (key === '') throw badInput('invalid input: the request body (the key) is required');
    if (key.length > MAX_KEY_LENGTH)
      throw badInput(
        `invalid input: the request body (the key) must be at most ${MAX_KEY_LENGTH} characters`,
      );
    if (!target) throw serviceNotFound(path);
    if (!(await putServiceKey(target, path.keyid, key, isoTimestamp(deps.clock))))
      throw serviceNotFound(path);
    return ok('key added or updated');
  },
});
