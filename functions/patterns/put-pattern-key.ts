import { keyFromBody } from '#functions/catalog/shared/key-body';
import { endpoint } from '#functions/endpoint';
import { ok } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { putPatternKey } from '#tables/pattern/key-records';
import { patternsRoutes } from './routes.ts';
import { authorizePattern, patternNotFound } from './shared/access.ts';

/**
 * PUT /v1/orgs/{organization}/patterns/{pattern}/keys/{keyid}: whoever may write the pattern. The
 * body is the key or certificate itself (any content type, as upstream), stored verbatim.
 */
export const handler = endpoint(patternsRoutes.operations.putPatternKey, {
  authorize: ({ caller, path }) => authorizePattern(caller, path, 'WRITE'),
  async handle({ path, target, event, deps }) {
    const key = keyFromBody(event);
    if (!target) throw patternNotFound(path);
    if (!(await putPatternKey(target, path.keyid, key, isoTimestamp(deps.clock))))
      throw patternNotFound(path);
    return ok('key added or updated');
  },
});
