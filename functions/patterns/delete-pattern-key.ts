import { endpoint } from '#functions/endpoint';
import { notFound } from '#lib/http/errors';
import { noContent } from '#lib/http/responses';
import { deletePatternKey } from '#tables/pattern/key-records';
import { patternsRoutes } from './routes.ts';
import { authorizePattern, patternId, patternNotFound } from './shared/access.ts';

/** DELETE /v1/orgs/{organization}/patterns/{pattern}/keys/{keyid}: 204, or 404 when missing. */
export const handler = endpoint(patternsRoutes.operations.deletePatternKey, {
  authorize: ({ caller, path }) => authorizePattern(caller, path, 'WRITE'),
  async handle({ path, target }) {
    if (!target) throw patternNotFound(path);
    if (!(await deletePatternKey(target, path.keyid)))
      throw notFound(`key '${path.keyid}' for pattern '${patternId(path)}' not found`);
    return noContent();
  },
});
