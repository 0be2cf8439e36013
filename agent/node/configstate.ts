import type { AgentContext } from '../context.ts';
import { badInput, notRegistered } from '../errors.ts';
import { asAgentError } from './exchange-errors.ts';
import { credentials, loadNode, type NodeRecord, nodeSource, saveNode } from './record.ts';

/**
 * PUT /node/configstate. The only move is configuring → configured; asking for the current state
 * changes nothing. A node with a pattern needs the Exchange's pattern and services to be
 * configured, which this agent does not handle yet: it answers 400 naming the pattern.
 */
export function setConfigState(ctx: AgentContext, state: 'configuring' | 'configured'): Promise<NodeRecord> {
  return ctx.writes.run(async () => {
    const node = loadNode(ctx.store);
    if (!node) throw notRegistered();
    const current = node.configstate.state;
    if (current === state) return node;
    if (current !== 'configuring' || state !== 'configured') {
      throw badInput(`Transition from '${current}' to '${state}' is not supported.`, 'configstate.state');
    }
    if (node.pattern) await refusePattern(ctx, node);
    const configured: NodeRecord = {
      ...node,
      configstate: { state: 'configured', last_update_time: Math.floor(ctx.now() / 1000) },
    };
    saveNode(ctx.store, configured);
    const message = `Complete node configuration/registration for node ${node.id}.`;
    ctx.events.node('info', 'node_configuration_registration_complete', message, nodeSource(configured));
    return configured;
  });
}

async function refusePattern(ctx: AgentContext, node: NodeRecord): Promise<never> {
  const [org = '', name = ''] = node.pattern.split('/');
  const found = await ctx.exchange.getPattern(credentials(node), org, name).catch((err) => {
    throw asAgentError(err, `${node.organization}/${node.id}`);
  });
  if (!found) {
    throw badInput(
      `pattern ${node.pattern} not found in the Exchange: the node cannot be configured.`,
      'pattern',
    );
  }
  throw badInput(
    `pattern ${node.pattern}: configuring a node with a pattern needs the pattern's services, which this agent does not deploy yet.`,
    'pattern',
  );
}
