import { setConfigState } from '../node/configstate.ts';
import { configStateView, loadNode, nodeSource } from '../node/record.ts';
import { configStateBody } from './configstate.schema.ts';
import type { RoutesPlugin } from './plugin.ts';
import { parseBody } from './validation.ts';

export const configStateRoutes: RoutesPlugin = async (app, { ctx }) => {
  app.get('/node/configstate', async () => {
    const node = loadNode(ctx.store);
    return node ? configStateView(node) : { state: 'unconfigured' };
  });

  // 201 with no body (upstream returns the state; docs/agent.md#deviations-from-upstreams-agent).
  app.put('/node/configstate', async (req, reply) => {
    const body = parseBody(configStateBody, req.body, 'configstate', 'node/configstate');
    try {
      await setConfigState(ctx, body.state);
    } catch (err) {
      const node = loadNode(ctx.store);
      if (node) {
        const message = `Error in node configuration. ${err instanceof Error ? err.message : String(err)}`;
        ctx.events.node('error', 'error_node_configuration_registration', message, nodeSource(node));
      }
      throw err;
    }
    return reply.code(201).send();
  });
};
