import type { Credentials } from '../exchange/client.ts';
import { AgentError, badInput, notRegistered } from '../ground/errors.ts';
import type { AgentContext } from '../runtime/context.ts';
import { asAgentError } from './exchange-errors.ts';
import { loadNode, type NodeRecord, saveNode } from './record.ts';

interface TokenUpdate {
  id: string;
  token: string;
  organization: string;
}

/** PATCH /node: a new token, accepted only while configuring and only once the Exchange takes it. */
export function updateToken(ctx: AgentContext, input: TokenUpdate): Promise<NodeRecord> {
  return ctx.writes.run(async () => {
    const node = loadNode(ctx.store);
    if (!node) throw notRegistered();
    if (node.configstate.state !== 'configuring') {
      throw new AgentError(
        400,
        'The node must be in configuring state in order to PATCH.',
        'configstate.state',
      );
    }
    if (input.id !== node.id) {
      throw badInput(`the node id ${input.id} is not the registered node id ${node.id}`, 'device.id');
    }
    if (input.organization !== '' && input.organization !== node.organization) {
      throw badInput(
        `the organization ${input.organization} is not the node's organization ${node.organization}`,
        'device.organization',
      );
    }
    const creds: Credentials = { org: node.organization, id: node.id, token: input.token };
    const found = await ctx.exchange.getNode(creds).catch((err) => {
      throw asAgentError(err, `${creds.org}/${creds.id}`);
    });
    if (!found) throw badInput(`node ${creds.org}/${creds.id} not found in the Exchange`, 'device.id');
    const updated: NodeRecord = {
      ...node,
      token: input.token,
      token_valid: true,
      token_last_valid_time: Math.floor(ctx.now() / 1000),
    };
    saveNode(ctx.store, updated);
    return updated;
  });
}
