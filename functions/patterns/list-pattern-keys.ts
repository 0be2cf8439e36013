import { endpoint } from '#functions/endpoint';
import { emptyList } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import { listPatternKeys } from '#tables/pattern/key-records';
import { patternsRoutes } from './routes.ts';
import { authorizePattern, patternNotFound } from './shared/access.ts';

/** GET /v1/orgs/{organization}/patterns/{pattern}/keys: the key ids; none → 404 `[]`. */
export const handler = endpoint(patternsRoutes.operations.getPatternKeys, {
  authorize: ({ caller, path }) => authorizePattern(caller, path, 'READ'),
  async handle({ path, target }) {
    if (!target) throw patternNotFound(path);
    const ids = await listPatternKeys(target);
    if (ids.length === 0) throw emptyList([]);
    return json(200, ids);
  },
});
