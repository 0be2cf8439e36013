import { badInput, notRegistered } from '../ground/errors.ts';
import type { AgentContext } from '../runtime/context.ts';
import { checkPatternServices } from './pattern-config.ts';
import { loadNode, type NodeRecord, nodeSource, saveNode } from './record.ts';

/**
 * PUT /node/configstate. The only move is configuring → configured; asking for the current state
 * changes nothing. A node with a pattern is configured only when the pattern's services for its
 * arch are in the Exchange with their required user input (pattern-config.ts).
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
    if (node.pattern) await checkPatternServices(ctx, node);
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
