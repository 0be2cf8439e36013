import { endpoint } from '#functions/endpoint';
import { notFound } from '#lib/http/errors';
import { text } from '#lib/http/responses';
import { getPatternKey } from '#tables/pattern/key-records';
import { patternsRoutes } from './routes.ts';
import { authorizePattern, patternId, patternNotFound } from './shared/access.ts';

/** GET /v1/orgs/{organization}/patterns/{pattern}/keys/{keyid}: the key as `text/plain`. */
export const handler = endpoint(patternsRoutes.operations.getPatternKey, {
  authorize: ({ caller, path }) => authorizePattern(caller, path, 'READ'),
  async handle({ path, target }) {
    if (!target) throw patternNotFound(path);
    const key = await getPatternKey(target, path.keyid);
    if (key === undefined) throw notFound(`key '${path.keyid}' for pattern '${patternId(path)}' not found`);
    return text(200, key);
  },
});
