import { agbotId } from '#functions/agbots/shared/access';
import { endpoint } from '#functions/endpoint';
import { notFound } from '#lib/http/errors';
import { noContent } from '#lib/http/responses';
import { deleteAgbotPatterns } from '#tables/agbot/pattern-records';
import { agbotPatternsRoutes } from './routes.ts';
import { authorizeServedWrite } from './shared/served-access.ts';

/** DELETE .../agbots/{agreementbot}/deployment/patterns: every served pattern; none → 404. */
export const handler = endpoint(agbotPatternsRoutes.operations.deleteAgbotPatterns, {
  authorize: ({ caller, path }) => authorizeServedWrite(caller, path),
  async handle({ path }) {
    if ((await deleteAgbotPatterns(path.organization, path.agreementbot)) === 0) {
      throw notFound(`no patterns for agbot '${agbotId(path)}' found`);
    }
    return noContent();
  },
});
