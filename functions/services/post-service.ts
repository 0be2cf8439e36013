import { endpoint } from '#functions/endpoint';
import { sizeProblem } from '#functions/nodes/rules';
import { serviceId } from '#lib/catalog/service-id';
import { accessDenied, badInput, HttpError, notFound } from '#lib/http/errors';
import { ok } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { createService } from '#tables/service/records';
import { servicesRoutes } from './routes.ts';
import { authorizeServiceAccess } from './shared/access.ts';
import { missingRequiredMessage, missingRequiredService, serviceBodyProblem } from './shared/rules.ts';
import { storedService } from './shared/service-view.ts';

/**
 * POST /v1/orgs/{organization}/services: users and admins of the org, root. Validates in upstream's
 * order (docs/exchange-catalog.md#service-validation), then inserts the service owned by the caller, its owner count (per-owner limit)
 * and its change row in one transaction; a duplicate id is 403 already-exists.
 */
export const handler = endpoint(servicesRoutes.operations.postService, {
  authorize: ({ caller, path }) => authorizeServiceAccess(caller, path.organization, '', 'CREATE', {}),
  async handle({ caller, path, body, deps }) {
    const problem = serviceBodyProblem(body) ?? sizeProblem(body);
    if (problem) throw badInput(problem);
    const org = path.organization;
    const id = serviceId(body.url, body.version, body.arch);
    const resource = `${org}/${id}`;
    const missing = await missingRequiredService(body.requiredServices ?? []);
    if (missing) throw badInput(missingRequiredMessage(resource, 'created', missing));
    const record = storedService(org, id, caller.fullId, body, isoTimestamp(deps.clock));
    const maxOwned = deps.config().limits.maxServices;
    const result = await createService(record, { maxOwned, orgMustExist: true });
    if (result === 'exists')
      throw new HttpError(403, 'already-exists', `service '${resource}' already exists`);
    if (result === 'over-limit')
      throw accessDenied(`Access Denied: you are over the limit of ${maxOwned} services`);
    if (result === 'no-org') throw notFound(`org '${org}' not found`);
    return ok(`service '${resource}' created`);
  },
});
