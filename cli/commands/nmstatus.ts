import type { Command } from 'commander';
import { AgentClient } from '../agent-client.ts';
import { act, type Base, group, leaf } from '../command-kit.ts';
import { jsonBody } from '../exchange-client.ts';
import { printJson } from '../output.ts';

type Json = Record<string, unknown>;

const statusPath = (name: string) => `nodemanagement/status${name ? `/${name}` : ''}`;

/**
 * `hzn nmstatus list [name] [-l]` and `hzn nmstatus reset [name]` against the local agent
 * (docs/hzn.md#node-management-policies), as upstream's open-horizon/anax `cli/nm_status/nm_status.go`.
 */
export function nmstatusCommands(program: Command, base: Base): void {
  const nmstatus = group(program, ['nmstatus'], 'List and manage node management status for the local node.');

  const list = leaf(nmstatus, ['list'], 'Display the node managment status for the local node.')
    .argument(
      '[name]',
      'The name of the node management policy. If omitted the status of all management policies for this node will be displayed.',
    )
    .option('-l, --long', 'Show the entire contents of each node management status object.');
  act(base, list, async (ctx, [given], opts) => {
    const name = given === '*' ? '' : (given ?? '');
    const agent = new AgentClient(ctx);
    const result = await agent.expect('GET', statusPath(name), [200, 404]);
    if (result.status === 404) return ctx.io.out('{}\n');
    const statuses = jsonBody<Record<string, Json>>(result, agent.url(statusPath(name)));
    const shown =
      opts.long === true
        ? statuses
        : Object.fromEntries(
            Object.entries(statuses)
              .sort(([a], [b]) => (a < b ? -1 : 1))
              .map(([key, s]) => [
                key,
                String((s.agentUpgradePolicyStatus as Json | undefined)?.status ?? ''),
              ]),
          );
    printJson(ctx.io, shown, { escapeHtml: false, extraLine: true });
  });

  const reset = leaf(
    nmstatus,
    ['reset'],
    'Re-evaluate the node management policy (nmp). Run this command to retry a nmp when the upgrade failed and the problem is fixed. Do not run this command when the node is still in the middle of an upgrade.',
  ).argument(
    '[name]',
    'The name of the node management policy. If omitted all management policies for this node will be re-evaluated.',
  );
  act(base, reset, async (ctx, [given]) => {
    const name = given === '*' ? '' : (given ?? '');
    const agent = new AgentClient(ctx);
    if (name) {
      await agent.expect('PUT', `nodemanagement/reset/${name}`, [201, 200]);
      ctx.io.out(`The following node management policy will be re-evaluated: ${name}.\n`);
      return;
    }
    const result = await agent.expect('GET', statusPath(''), [200, 404]);
    if (result.status === 404) return ctx.io.out('No node management policy for this node.\n');
    const ids = Object.keys(jsonBody<Json>(result, agent.url(statusPath('')))).sort();
    await agent.expect('PUT', 'nodemanagement/reset', [201, 200]);
    ctx.io.out(
      ids.length === 1
        ? `The following node management policy will be re-evaluated: ${ids[0]}.\n`
        : `The following node management policies will be re-evaluated: ${ids.join(',')}.\n`,
    );
  });
}
