import type { FastifyInstance } from 'fastify';
import { AgentError } from '../ground/errors.ts';
import { loadNode } from '../node/record.ts';
import type { AgentContext } from '../runtime/context.ts';

/**
 * Upstream's registration gate of /attribute and /service*: until a node record exists (in any
 * configuration state) every route of the plugin answers 424 with this JSON error.
 */
export function requireNodeRecord(app: FastifyInstance, ctx: AgentContext): void {
  app.addHook('onRequest', async () => {
    if (!loadNode(ctx.store)) {
      throw new AgentError(
        424,
        "Exchange registration not recorded. Complete account and node registration with an exchange and then record node registration using this API's /node path.",
        'node',
      );
    }
  });
}
