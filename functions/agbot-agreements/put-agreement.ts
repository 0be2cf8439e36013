import { agbotNotFound, authorizeAgbot, isTheAgbot } from '#functions/agbots/shared/access';
import { endpoint } from '#functions/endpoint';
import { accessDenied } from '#lib/http/errors';
import { ok } from '#lib/http/responses';
import { AGBOT_STATES } from '#lib/protocol/agreement-states';
import { isoTimestamp } from '#lib/time';
import { putAgreement } from '#tables/agbot/agreement-records';
import { agbotAgreementsRoutes } from './routes.ts';

/**
 * PUT /v1/orgs/{organization}/agbots/{agreementbot}/agreements/{agreement}: the agbot, its owner,
 * org admins, hub admins, root. Adds (within `maxAgreements` per agbot) or updates; 201. A row
 * in the protocol's first state ("Formed Proposal") is most likely new, so its create is tried first.
 */
export const handler = endpoint(agbotAgreementsRoutes.operations.putAgbotAgreement, {
  // The agbot writing its own agreement (three times an agreement) is known from its credentials,
  // owner included: no read of its record. Gone since, it fails the write's condition (404).
  authorize: async ({ caller, path }) =>
    isTheAgbot(caller, path) ? { owner: caller.owner } : authorizeAgbot(caller, path, 'WRITE'),
  async handle({ path, body, target, deps }) {
    if (!target) throw agbotNotFound(path);
    const max = deps.config().limits.maxAgreements;
    const outcome = await putAgreement(
      {
        org: path.organization,
        agbot: path.agreementbot,
        agreementId: path.agreement,
        owner: target.owner,
        service: body.service,
        state: body.state,
        now: isoTimestamp(deps.clock),
      },
      max,
      body.state === AGBOT_STATES.formedProposal,
    );
    if (outcome === 'no-agbot') throw agbotNotFound(path);
    if (outcome === 'limit')
      throw accessDenied(`Access Denied: you are over the limit of ${max} agreements for this agbot`);
    return ok('agreement added or updated');
  },
});
