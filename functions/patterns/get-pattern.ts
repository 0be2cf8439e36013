import { endpoint } from '#functions/endpoint';
import { badInput, notFound } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import { patternsRoutes } from './routes.ts';
import { authorizePattern } from './shared/access.ts';
import { patternAttribute, patternsBody } from './shared/pattern-view.ts';

const ATTRIBUTES =
  /^(owner|public|agreementprotocols|clusternamespace|description|label|secretbinding|services|userinput)$/i;

/**
 * GET /v1/orgs/{organization}/patterns/{pattern}[?attribute=]: identities of the org, anyone for a
 * public pattern, nodes for org IBM, multi-tenant agbots, root. Missing: 404 with the empty map
 * (`?attribute=`: 404 not-found). An unknown attribute name is upstream's intended 400.
 */
export const handler = endpoint(patternsRoutes.operations.getPattern, {
  authorize: ({ caller, path }) => authorizePattern(caller, path, 'READ'),
  handle({ query, target }) {
    if (query.attribute !== undefined) {
      if (!ATTRIBUTES.test(query.attribute))
        throw badInput(
          `Pattern attribute name '${query.attribute}' is not an attribute of the pattern resource.`,
        );
      const value = target && patternAttribute(target, query.attribute);
      if (value === undefined) throw notFound('not found');
      return json(200, { attribute: query.attribute, value });
    }
    return json(target ? 200 : 404, patternsBody(target ? [target] : []));
  },
});
