import { AgentError, badInput } from '../ground/errors.ts';
import { own } from '../ground/own.ts';
import {
  hasUnregistered,
  isActive,
  loadNode,
  type NodeRecord,
  nodeSource,
  nodeView,
  unregisteredView,
} from '../node/record.ts';
import { register, restarting } from '../node/register.ts';
import { updateToken } from '../node/token.ts';
import { unregister } from '../node/unregister.ts';
import type { AgentContext } from '../runtime/context.ts';
import { registerBody, tokenBody, unregisterQuery } from './node.schema.ts';
import type { RoutesPlugin } from './plugin.ts';
import { parseBody } from './validation.ts';

export const nodeRoutes: RoutesPlugin = async (app, { ctx }) => {
  app.get('/node', async () => {
    const node = loadNode(ctx.store);
    if (node) return nodeView(node);
    // 404 once an unregistration has completed (docs/agent.md; a client of `DELETE /node?block=false`
    // polls for it), until the next registration; `hzn node list` shows the unconfigured shape then.
    if (hasUnregistered(ctx.store))
      throw new AgentError(404, 'the node is not registered: its unregistration has completed', 'node');
    return unregisteredView(ctx.config.defaultNodeId);
  });

  app.post('/node', async (req, reply) => {
    if (loadNode(ctx.store)) throw new AgentError(409, 'device is already registered', 'node');
    if (ctx.runtime.unconfiguring) throw restarting();
    const givenId = idOf(req.body);
    const source = {
      node_id: givenId,
      node_org: fieldOf(req.body, 'organization'),
      pattern: fieldOf(req.body, 'pattern'),
      config_state: '',
    };
    ctx.events.node(
      'info',
      'start_node_configuration_registration',
      `Start node configuration/registration for node ${givenId}.`,
      source,
    );
    try {
      const body = parseBody(registerBody, req.body, 'device', 'node');
      const id = body.id || ctx.config.defaultNodeId;
      if (!id)
        throw badInput('Either setup HZN_NODE_ID environmental variable or specify device.id.', 'device.id');
      const node = await register(ctx, {
        id,
        organization: body.organization,
        pattern: body.pattern ?? '',
        name: body.name || id,
        nodeType: body.nodeType ?? 'device',
        token: body.token,
      });
      return reply.code(201).send(nodeView(node));
    } catch (err) {
      const message = `Error in node configuration/registration for node ${givenId}. ${errorText(err)}`;
      ctx.events.node('error', 'error_node_configuration_registration', message, source);
      throw err;
    }
  });

  app.patch('/node', async (req) => {
    const givenId = idOf(req.body);
    const known = loadNode(ctx.store);
    const source = known
      ? nodeSource(known)
      : { node_id: givenId, node_org: '', pattern: '', config_state: '' };
    ctx.events.node('info', 'start_node_update', `Start updating node ${givenId}.`, source);
    try {
      const body = parseBody(tokenBody, req.body, 'device', 'node');
      const node = await updateToken(ctx, {
        id: body.id,
        token: body.token,
        organization: body.organization ?? '',
      });
      ctx.events.node(
        'info',
        'node_update_complete',
        `Complete node update for ${node.id}.`,
        nodeSource(node),
      );
      return nodeView(node);
    } catch (err) {
      ctx.events.node(
        'error',
        'error_node_update',
        `Error in updating node ${givenId}. ${errorText(err)}`,
        source,
      );
      throw err;
    }
  });

  app.delete('/node', async (req, reply) => {
    const node = loadNode(ctx.store);
    const source = node
      ? nodeSource(node)
      : { node_id: '', node_org: '', pattern: '', config_state: 'unconfigured' };
    ctx.events.node('info', 'start_node_unregistration', 'Start node unregistration.', source);
    const options = unregistrationOptions(ctx, req.query, node);
    const done = unregister(ctx, options);
    if (!done) throw invalidState();
    if (!options.block) {
      void done.catch(() => {}); // reported in the event log; nobody waits for it
      return reply.code(204).send();
    }
    await done;
    return reply.code(204).send();
  });
};

function unregistrationOptions(ctx: AgentContext, query: unknown, node: NodeRecord | undefined) {
  if (!node) {
    const source = { node_id: '', node_org: '', pattern: '', config_state: 'unconfigured' };
    ctx.events.node(
      'error',
      'error_node_unregistration',
      'Error unregistering the node. The node is not found from the database.',
      source,
    );
    throw new AgentError(404, 'The node is not registered.', 'node');
  }
  if (!isActive(node)) throw invalidState();
  const parsed = unregisterQuery.safeParse(query);
  if (!parsed.success) {
    const name = String(parsed.error.issues[0]?.path[0] ?? 'query');
    throw badInput(
      `${String(own(query as Record<string, unknown>, name))} is an incorrect value for ${name}`,
      `url.${name}`,
    );
  }
  const { block, removeNode, deepClean } = parsed.data;
  return { block: block !== 'false', removeNode: removeNode === 'true', deepClean: deepClean === 'true' };
}

const invalidState = () =>
  new AgentError(
    400,
    'INVALID_NODE_STATE. The node must be in configured or configuring state in order to unconfigure it.',
    'configstate.state',
  );

const fieldOf = (body: unknown, key: string): string => {
  const value = own(body as Record<string, unknown>, key);
  return typeof value === 'string' ? value : '';
};

const idOf = (body: unknown) => fieldOf(body, 'id');

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));
