import { agbotId } from '#functions/agbots/shared/access';
import { endpoint } from '#functions/endpoint';
import { notFound } from '#lib/http/errors';
import { noContent } from '#lib/http/responses';
import { deleteAgbotPattern } from '#tables/agbot/pattern-records';
import { agbotPatternsRoutes } from './routes.ts';
import { authorizeServedWrite } from './shared/served-access.ts';

/** DELETE .../agbots/{agreementbot}/deployment/patterns/{deploymentpattern}: the owning user or the agbot. */
export const handler = endpoint(agbotPatternsRoutes.operations.deleteAgbotPattern, {
  authorize: ({ caller, path }) => authorizeServedWrite(caller, path),
  async handle({ path }) {
    const { organization, agreementbot, deploymentpattern } = path;
    if (!(await deleteAgbotPattern(organization, agreementbot, deploymentpattern))) {
      throw notFound(`pattern '${deploymentpattern}' for agbot '${agbotId(path)}' not found`);
    }
    return noContent();
  },
});
