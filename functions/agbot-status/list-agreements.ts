import { endpoint } from '#functions/endpoint';
import { BUILT_IN_AGBOT } from '#lib/agbot/built-in';
import { upstreamAgreement } from '#lib/agbot-store/agreement-view';
import { json } from '#lib/http/responses';
import { listAgreements, liveAgreementsOfOrg } from '#tables/agbot-state/agreements';
import { agbotStatusRoutes } from './routes.ts';
import { authorizeStatusReader, visibleNodeOrgs } from './shared/access.ts';

/**
 * GET /v1/orgs/{organization}/agbotstatus/agreements[?archived=true]: the in-stack agbot's active
 * (or archived) agreements under the org's policies, in upstream's agbot `GET /agreement` shape; a
 * user sees those with nodes of their own org only. Active: one Query of the org's live agreements'
 * gsi1 partition (tables/README.md, agbot state); archived: one Query of the archive, every org's.
 */
export const handler = endpoint(agbotStatusRoutes.operations.listAgbotStatusAgreements, {
  authorize: ({ caller, path }) => authorizeStatusReader(caller, path.organization),
  async handle({ caller, path, query }) {
    const archived = query.archived === true;
    const visible = visibleNodeOrgs(caller);
    const agreements = (
      archived
        ? (await listAgreements(BUILT_IN_AGBOT, true)).filter((a) =>
            a.policy.startsWith(`${path.organization}/`),
          )
        : await liveAgreementsOfOrg(BUILT_IN_AGBOT, path.organization)
    )
      .filter((a) => visible === undefined || visible(a.nodeOrg))
      .map(upstreamAgreement);
    return json(200, { agreements: archived ? { archived: agreements } : { active: agreements } });
  },
});
