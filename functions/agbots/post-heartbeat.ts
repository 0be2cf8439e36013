import { endpoint } from '#functions/endpoint';
import { authorize } from '#lib/auth/access';
import { ok } from '#lib/http/responses';
import { recordAgbotHeartbeat } from '#tables/agbot/records';
import { agbotsRoutes } from './routes.ts';
import { agbotNotFound, authorizeAgbot } from './shared/access.ts';
import { heartbeatTimestamp } from './shared/agbot-view.ts';

/**
 * POST /v1/orgs/{organization}/agbots/{agreementbot}/heartbeat: the agbot itself, its owner, org
 * admins, hub admins, root. Sets lastHeartbeat only.
 */
export const handler = endpoint(agbotsRoutes.operations.postAgbotHeartbeat, {
  async authorize({ caller, path }) {
    // The usual caller is the agbot itself, which just authenticated: no need to read it first.
    if (caller.kind === 'agbot' && caller.org === path.organization && caller.id === path.agreementbot) {
      authorize(
        caller,
        { type: 'agbot', org: path.organization, id: path.agreementbot, exists: true },
        'WRITE',
      );
      return;
    }
    await authorizeAgbot(caller, path, 'WRITE');
  },
  async handle({ path, deps }) {
    const at = heartbeatTimestamp(deps.clock);
    if (!(await recordAgbotHeartbeat(path.organization, path.agreementbot, at))) throw agbotNotFound(path);
    return ok('agbot updated');
  },
});
