import { endpoint } from '#functions/endpoint';
import { ok } from '#lib/http/responses';
import { agbotsRoutes } from './routes.ts';
import { authorizeAgbot } from './shared/access.ts';
import { heartbeatTimestamp } from './shared/agbot-view.ts';
import { saveAgbot } from './shared/save-agbot.ts';

/**
 * PUT /v1/orgs/{organization}/agbots/{agreementbot}: a user of the org creates it (and owns it,
 * within `maxAgbots`); its owner, org admins, hub admins, root or the agbot itself replace it.
 * 200 by default, or 201 (upstream's) with the setting `compat.agbotWriteStatus`.
 */
export const handler = endpoint(agbotsRoutes.operations.putAgbot, {
  authorize: ({ caller, path }) => authorizeAgbot(caller, path, 'WRITE'),
  async handle({ caller, path, body, target, deps }) {
    const now = heartbeatTimestamp(deps.clock);
    await saveAgbot({ caller, path, body, now, maxAgbots: deps.config().limits.maxAgbots }, target);
    return ok('agbot added or updated', deps.config().compat.agbotWriteStatus);
  },
});
