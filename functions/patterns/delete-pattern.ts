import { endpoint } from '#functions/endpoint';
import { noContent } from '#lib/http/responses';
import { sweepPatternKeys } from '#tables/pattern/key-records';
import { deletePattern } from '#tables/pattern/records';
import { patternsRoutes } from './routes.ts';
import { authorizePattern, patternNotFound } from './shared/access.ts';

/**
 * DELETE /v1/orgs/{organization}/patterns/{pattern}: as PUT; 204, or 404 when missing. Takes its
 * keys with it. Nodes that name it and agbots that serve it are left as they are (upstream).
 */
export const handler = endpoint(patternsRoutes.operations.deletePattern, {
  authorize: ({ caller, path }) => authorizePattern(caller, path, 'WRITE'),
  async handle({ path, target }) {
    if (!target || !(await deletePattern(target))) throw patternNotFound(path);
    await sweepPatternKeys(path.organization, path.pattern);
    return noContent();
  },
});
