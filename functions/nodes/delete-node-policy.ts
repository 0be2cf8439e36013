import { endpoint } from '#lib/http/endpoint';
import { notFound } from '#lib/http/errors';
import { noContent } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { deleteNodePolicy } from '#tables/node-policy-records';
import { authorizeNode, nodePath, resourceId } from './access.ts';

/** DELETE /v1/orgs/{organization}/nodes/{node}/policy: whoever may write the node; stamps its lastUpdated. */
export const handler = endpoint({
  path: nodePath,
  authorize: ({ caller, path }) => authorizeNode(caller, path, 'WRITE'),
  async handle({ path, deps }) {
    const deleted = await deleteNodePolicy(path.organization, path.node, {
      lastUpdated: isoTimestamp(deps.clock),
    });
    if (!deleted) throw notFound(`policy for node '${resourceId(path)}' not found`);
    return noContent();
  },
});
