import { endpoint } from '#functions/endpoint';
import { emptyList } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import { getAgbotPattern } from '#tables/agbot/pattern-records';
import { agbotPatternsRoutes } from './routes.ts';
import { patternsBody } from './shared/pattern-view.ts';
import { authorizeServedRead } from './shared/served-access.ts';

/** GET .../agbots/{agreementbot}/deployment/patterns/{deploymentpattern}: the owning user or the agbot. */
export const handler = endpoint(agbotPatternsRoutes.operations.getAgbotPattern, {
  authorize: ({ caller, path }) => authorizeServedRead(caller, path),
  async handle({ path }) {
    const record = await getAgbotPattern(path.organization, path.agreementbot, path.deploymentpattern);
    const body = patternsBody(record ? [record] : []);
    if (!record) throw emptyList(body);
    return json(200, body);
  },
});
