import { endpoint } from '#functions/endpoint';
import { notFound } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import { agbotsRoutes } from './routes.ts';
import { authorizeAgbotReader } from './shared/access.ts';
import { agbotAttribute, agbotsResponse } from './shared/agbot-view.ts';

/**
 * GET /v1/orgs/{organization}/agbots/{agreementbot}[?attribute=]: users of the org, hub admins,
 * root, the agbot itself. With `attribute`, only that attribute's value.
 */
export const handler = endpoint(agbotsRoutes.operations.getAgbot, {
  authorize: ({ caller, path }) => authorizeAgbotReader(caller, path),
  handle({ query, target: agbot }) {
    if (!agbot) throw notFound('not found');
    const value = query.attribute ? agbotAttribute(agbot, query.attribute) : undefined;
    if (value !== undefined) return json(200, { attribute: query.attribute, value });
    return agbotsResponse([agbot]);
  },
});
