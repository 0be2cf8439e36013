import { endpoint } from '#functions/endpoint';
import { noContent } from '#lib/http/responses';
import { deleteAgbot } from '#tables/agbot/records';
import { agbotsRoutes } from './routes.ts';
import { agbotNotFound, authorizeAgbot } from './shared/access.ts';

/**
 * DELETE /v1/orgs/{organization}/agbots/{agreementbot}: its owner, org admins, hub admins, root,
 * the agbot itself. Takes its agreements, served patterns and policies and messages along.
 */
export const handler = endpoint(agbotsRoutes.operations.deleteAgbot, {
  authorize: ({ caller, path }) => authorizeAgbot(caller, path, 'WRITE'),
  async handle({ path, target }) {
    if (!target || !(await deleteAgbot(target))) throw agbotNotFound(path);
    return noContent();
  },
});
