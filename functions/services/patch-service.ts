import { endpoint } from '#functions/endpoint';
import { sizeProblem } from '#functions/nodes/rules';
import { badInput } from '#lib/http/errors';
import { ok } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import type { ServiceRecord } from '#tables/service/records';
import { servicesRoutes } from './routes.ts';
import { authorizeService, resourceId, serviceNotFound } from './shared/access.ts';
import {
  missingRequiredMessage,
  missingRequiredService,
  requiredServicesProblem,
  sharableProblem,
  userInputProblem,
} from './shared/rules.ts';
import type { PatchServiceBody } from './shared/schemas.ts';
import { encodeRequiredServices } from './shared/service-view.ts';
import { updateService } from './shared/update-service.ts';

/** Upstream's order: the first attribute present is applied, the rest ignored (docs/exchange-catalog.md#service-routes). */
const ORDER = [
  'label',
  'description',
  'public',
  'documentation',
  'url',
  'version',
  'arch',
  'sharable',
  'matchHardware',
  'requiredServices',
  'userInput',
  'deployment',
  'deploymentSignature',
  'imageStore',
] as const;
type Patchable = (typeof ORDER)[number];

const FIXED =
  "patching attributes 'url', 'version', and 'arch' are not allowed (because the id would not match). To change those attributes you must delete the resource and recreate it.";

/** The stored form of one patched attribute. */
function patched(body: PatchServiceBody, attribute: Patchable): Partial<ServiceRecord> {
  switch (attribute) {
    case 'matchHardware':
    case 'userInput':
    case 'imageStore':
      return { [attribute]: JSON.stringify(body[attribute]) };
    case 'requiredServices':
      return { requiredServices: encodeRequiredServices(body.requiredServices ?? []) };
    default:
      return { [attribute]: body[attribute] };
  }
}

/**
 * PATCH /v1/orgs/{organization}/services/{service}: owner, org admins, root. `clusterDeployment`
 * and its signature cannot be patched (upstream); `requiredServices` are checked again.
 */
export const handler = endpoint(servicesRoutes.operations.patchService, {
  authorize: ({ caller, path }) => authorizeService(caller, path, 'WRITE'),
  async handle({ caller, path, body, target, deps }) {
    const attribute = ORDER.find((name) => body[name] != null);
    if (!attribute) throw badInput('no valid service attribute specified');
    if (attribute === 'url' || attribute === 'version' || attribute === 'arch') throw badInput(FIXED);
    if (!target) throw serviceNotFound(path);
    const problem =
      (attribute === 'sharable' && sharableProblem(body.sharable ?? '')) ||
      (attribute === 'requiredServices' &&
        requiredServicesProblem(body.requiredServices ?? [], target.arch)) ||
      (attribute === 'userInput' && userInputProblem(body.userInput ?? []));
    if (problem) throw badInput(problem);
    const missing =
      attribute === 'requiredServices' && (await missingRequiredService(body.requiredServices ?? []));
    if (missing) throw badInput(missingRequiredMessage(resourceId(path), 'updated', missing));
    const change = { ...patched(body, attribute), lastUpdated: isoTimestamp(deps.clock) };
    const tooLarge = sizeProblem({ ...target, ...change });
    if (tooLarge) throw badInput(tooLarge);
    await updateService(caller, path, target, (current) => ({ ...current, ...change }), 'modified');
    return ok(`attribute '${attribute}' of service '${resourceId(path)}' updated`);
  },
});
