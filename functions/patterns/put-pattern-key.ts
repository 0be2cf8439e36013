import { MAX_KEY_LENGTH } from '#functions/services/schemas';
import { endpoint } from '#lib/http/endpoint';
import { badInput } from '#lib/http/errors';
import { ok } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { putPatternKey } from '#tables/pattern-keys';
import { authorizePattern, patternNotFound } from './access.ts';
import { patternKeyPath } from './schemas.ts';

/**
 * PUT /v1/orgs/{organization}/patterns/{pattern}/keys/{keyid}: whoever may write the pattern. The
 * body is the key or certificate itself (any content type, as upstream), stored verbatim.
 */
export const handler = endpoint({
  path: patternKeyPath,
  authorize: ({ caller, path }) => authorizePattern(caller, path, 'WRITE'),
  async handle({ path, target, event, deps }) {
    const raw = typeof event.body === 'string' ? event.body : '';
    const key = event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw;
    if (key === '') throw badInput('invalid input: the request body (the key) is required');
    if (key.length > MAX_KEY_LENGTH)
      throw badInput(
        `invalid input: the request body (the key) must be at most ${MAX_KEY_LENGTH} characters`,
      );
    if (!target) throw patternNotFound(path);
    if (!(await putPatternKey(target, path.keyid, key, isoTimestamp(deps.clock))))
      throw patternNotFound(path);
    return ok('key added or updated');
  },
});
