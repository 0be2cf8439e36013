import { endpoint } from '#functions/endpoint';
import { notFound } from '#lib/http/errors';
import { noContent } from '#lib/http/responses';
import { deletePatternKeys } from '#tables/pattern/key-records';
import { patternsRoutes } from './routes.ts';
import { authorizePattern, patternId, patternNotFound } from './shared/access.ts';

/** DELETE /v1/orgs/{organization}/patterns/{pattern}/keys: every key; none → 404. */
export const handler = endpoint(patternsRoutes.operations.deletePatternKeys, {
  authorize: ({ caller, path }) => authorizePattern(caller, path, 'WRITE'),
  async handle({ path, target }) {
    if (!target) throw patternNotFound(path);
    if (!(await deletePatternKeys(target))) throw notFound(`no keys for pattern '${patternId(path)}' found`);
    return noContent();
  },
});
