import { endpoint } from '#functions/endpoint';
import { hashCredential } from '#lib/auth/authenticate';
import { badInput } from '#lib/http/errors';
import { ok } from '#lib/http/responses';
import { updateAgbot } from '#tables/agbot/records';
import { agbotsRoutes } from './routes.ts';
import { agbotId, agbotNotFound, authorizeAgbot } from './shared/access.ts';
import { heartbeatTimestamp } from './shared/agbot-view.ts';
import { PATCH_ATTRIBUTES } from './shared/schemas.ts';

const ONE_OF = PATCH_ATTRIBUTES.map((name) => `'${name}'`).join(', ');

/**
 * PATCH /v1/orgs/{organization}/agbots/{agreementbot}: exactly one of token, name, msgEndPoint,
 * publicKey (upstream silently takes the first; docs/compatibility.md#agbots-and-agbot-agreements); who as PUT. Also sets lastHeartbeat.
 * Answers `compat.agbotWriteStatus` (200, or upstream's 201), as PUT.
 */
export const handler = endpoint(agbotsRoutes.operations.patchAgbot, {
  authorize: ({ caller, path }) => authorizeAgbot(caller, path, 'WRITE'),
  async handle({ path, body, target, deps }) {
    const present = PATCH_ATTRIBUTES.filter((name) => body[name] != null);
    const [attribute] = present;
    if (present.length !== 1 || !attribute) {
      const given = present.length > 1 ? `, not ${present.length} of them` : '';
      throw badInput(`invalid input: the body must carry exactly one of ${ONE_OF}${given}`);
    }
    if (!target) throw agbotNotFound(path);
    const value = body[attribute] as string;
    const change =
      attribute === 'token' ? { tokenHash: await hashCredential(value) } : { [attribute]: value };
    const changes = { ...change, lastHeartbeat: heartbeatTimestamp(deps.clock) };
    if (!(await updateAgbot(path.organization, path.agreementbot, target.owner, changes)))
      throw agbotNotFound(path);
    return ok(
      `attribute '${attribute}' of agbot '${agbotId(path)}' updated`,
      deps.config().compat.agbotWriteStatus,
    );
  },
});
