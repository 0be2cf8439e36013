import { agbotId, agbotNotFound } from '#functions/agbots/shared/access';
import { endpoint } from '#functions/endpoint';
import { alreadyExists } from '#lib/http/errors';
import { ok } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { insertAgbotPattern } from '#tables/agbot/pattern-records';
import { agbotPatternsRoutes } from './routes.ts';
import { checkServeDeclaration } from './shared/serve-rule.ts';
import { authorizeServedWrite } from './shared/served-access.ts';

/**
 * POST /v1/orgs/{organization}/agbots/{agreementbot}/deployment/patterns: the owning user or the
 * agbot, within what the agbot may serve (shared/serve-rule.ts). The id is `<patternOrgid>_<pattern>`;
 * serving it twice is a 409.
 */
export const handler = endpoint(agbotPatternsRoutes.operations.postAgbotPattern, {
  authorize: ({ caller, path }) => authorizeServedWrite(caller, path),
  async handle({ caller, path, body, deps, target }) {
    const nodeOrgid = body.nodeOrgid ?? body.patternOrgid;
    await checkServeDeclaration(caller, target, {
      kind: 'pattern',
      org: body.patternOrgid,
      name: body.pattern,
      nodeOrg: nodeOrgid || body.patternOrgid,
    });
    const patternId = `${body.patternOrgid}_${body.pattern}`;
    const outcome = await insertAgbotPattern({
      org: path.organization,
      id: path.agreementbot,
      patternId,
      patternOrgid: body.patternOrgid,
      pattern: body.pattern,
      nodeOrgid,
      lastUpdated: isoTimestamp(deps.clock),
    });
    if (outcome === 'no-agbot') throw agbotNotFound(path);
    if (outcome === 'exists') {
      throw alreadyExists(`pattern '${patternId}' for agbot '${agbotId(path)}' already exists`);
    }
    return ok(`pattern ${patternId} added`);
  },
});
