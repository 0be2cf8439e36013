import { endpoint } from '#functions/endpoint';
import { badInput, notFound } from '#lib/http/errors';
import { ok } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { laterTimestamp } from '#tables/node/records';
import { recordServicesConfigState } from '#tables/node/report-records';
import { authorizeNode, CONFLICT, nodeNotFound, resourceId, writeWithReread } from './access.ts';
import { applyConfigState, configStateProblem } from './configstate.ts';
import { nodesRoutes } from './routes.ts';

/**
 * POST /v1/orgs/{organization}/nodes/{node}/services_configstate: whoever may write the node.
 * Sets the configState of the matching registeredServices (stamping the node when one changes)
 * and records a `services_configstate` change on every success, as upstream; 201.
 */
export const handler = endpoint(nodesRoutes.operations.postNodeServicesConfigState, {
  authorize: ({ caller, path }) => authorizeNode(caller, path, 'WRITE'),
  async handle({ caller, path, body, target, deps }) {
    const problem = configStateProblem(body);
    if (problem) throw badInput(problem);
    await writeWithReread(caller, path, target, async (node) => {
      if (!node) throw nodeNotFound(path);
      const outcome = applyConfigState(node.registeredServices, body);
      if (outcome.kind === 'no-services')
        throw notFound('node has no registeredServices to change the configState of.');
      if (outcome.kind === 'no-match') {
        throw notFound('did not find any registeredServices that matched the given org and url criteria.');
      }
      const now = isoTimestamp(deps.clock);
      const stamp = { lastHeartbeat: now, lastUpdated: laterTimestamp(node.lastUpdated, now) };
      const changes = outcome.changed ? { registeredServices: outcome.services, ...stamp } : undefined;
      return (await recordServicesConfigState(node, changes)) ? true : CONFLICT;
    });
    return ok(`registeredServices of node '${resourceId(path)}' updated`);
  },
});
