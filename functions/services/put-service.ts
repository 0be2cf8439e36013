import { endpoint } from '#functions/endpoint';
import { sizeProblem } from '#functions/nodes/rules';
import { badInput } from '#lib/http/errors';
import { ok } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { servicesRoutes } from './routes.ts';
import { authorizeService, resourceId, serviceNotFound } from './shared/access.ts';
import { missingRequiredMessage, missingRequiredService, serviceBodyProblem } from './shared/rules.ts';
import { storedService } from './shared/service-view.ts';
import { updateService } from './shared/update-service.ts';

/**
 * PUT /v1/orgs/{organization}/services/{service}: owner, org admins, root. Update only (missing →
 * 404); the body must reproduce the path's id. Replaces every field, and the caller becomes the
 * owner, as upstream (docs/exchange-catalog.md#service-routes).
 */
export const handler = endpoint(servicesRoutes.operations.putService, {
  authorize: ({ caller, path }) => authorizeService(caller, path, 'WRITE'),
  async handle({ caller, path, body, target, deps }) {
    const problem = serviceBodyProblem(body, path.service) ?? sizeProblem(body);
    if (problem) throw badInput(problem);
    if (!target) throw serviceNotFound(path);
    const missing = await missingRequiredService(body.requiredServices ?? []);
    if (missing) throw badInput(missingRequiredMessage(resourceId(path), 'updated', missing));
    const now = isoTimestamp(deps.clock);
    const next = storedService(path.organization, path.service, caller.fullId, body, now);
    await updateService(
      caller,
      path,
      target,
      (current) => ({ ...next, rev: current.rev }),
      'created/modified',
    );
    return ok(`service '${resourceId(path)}' updated`);
  },
});
