import { checkServeDeclaration } from '#functions/agbot-patterns/shared/serve-rule';
import { authorizeServedWrite } from '#functions/agbot-patterns/shared/served-access';
import { agbotId, agbotNotFound } from '#functions/agbots/shared/access';
import { endpoint } from '#functions/endpoint';
import { alreadyExists } from '#lib/http/errors';
import { ok } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { insertAgbotPolicy } from '#tables/agbot/policy-records';
import { agbotPoliciesRoutes } from './routes.ts';

/**
 * POST /v1/orgs/{organization}/agbots/{agreementbot}/deployment/policies: the owning user or the
 * agbot, within what the agbot may serve (serve-rule.ts). The id is
 * `<businessPolOrgid>_<businessPol>`; serving it twice is a 409. `nodeOrgid` defaults to the
 * policy's org.
 */
export const handler = endpoint(agbotPoliciesRoutes.operations.postAgbotPolicy, {
  authorize: ({ caller, path }) => authorizeServedWrite(caller, path),
  async handle({ caller, path, body, deps, target }) {
    const nodeOrgid = body.nodeOrgid ?? body.businessPolOrgid;
    await checkServeDeclaration(caller, target, {
      kind: 'deployment policy',
      org: body.businessPolOrgid,
      name: body.businessPol,
      nodeOrg: nodeOrgid || body.businessPolOrgid,
    });
    const policyId = `${body.businessPolOrgid}_${body.businessPol}`;
    const outcome = await insertAgbotPolicy({
      org: path.organization,
      id: path.agreementbot,
      policyId,
      businessPolOrgid: body.businessPolOrgid,
      businessPol: body.businessPol,
      nodeOrgid,
      lastUpdated: isoTimestamp(deps.clock),
    });
    if (outcome === 'no-agbot') throw agbotNotFound(path);
    if (outcome === 'exists') {
      throw alreadyExists(`businessPol '${policyId}' for agbot '${agbotId(path)}' already exists`);
    }
    return ok(`businessPol ${policyId} added`);
  },
});
