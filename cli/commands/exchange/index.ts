import type { Command } from 'commander';
import { type Base, group } from '../../command-kit.ts';
import { agbotCommands } from './agbot.ts';
import { deploymentCommands } from './deployment.ts';
import { nmpCommands } from './nmp.ts';
import { nodeManagementCommands } from './nmp-node-management.ts';
import { exchangeNodeCommands } from './node.ts';
import { orgCommands } from './org.ts';
import { patternCommands } from './pattern.ts';
import { rolloutCommands } from './rollout.ts';
import { exchangeServiceCommands } from './service.ts';
import { statusAndVersionCommands } from './status.ts';
import { userCommands } from './user.ts';

/** `hzn exchange|ex [-o org] [-u user:pw] ...` (docs/hzn-behaviour.md#exchange-commands). */
export function exchangeCommands(program: Command, base: Base): void {
  const exchange = group(program, ['exchange', 'ex'], 'List and manage Horizon Exchange resources.')
    .option(
      '-o, --org <org>',
      'The Horizon exchange organization ID. If not specified, HZN_ORG_ID will be used as a default.',
    )
    .option(
      '-u, --user-pw <user:pw>',
      'Horizon Exchange user credentials to query and create exchange resources. If not specified, HZN_EXCHANGE_USER_AUTH will be used as a default.',
    );
  for (const add of [
    statusAndVersionCommands,
    exchangeServiceCommands,
    patternCommands,
    deploymentCommands,
    exchangeNodeCommands,
    orgCommands,
    userCommands,
    agbotCommands,
    nmpCommands,
  ])
    add(exchange, base);
  // `exchange node management|mgmt …` lives beside the nmp commands (docs/hzn.md#node-management-policies).
  const node = exchange.commands.find((c) => c.name() === 'node');
  if (node) nodeManagementCommands(node, base);
  // `exchange deployment rollout …`: our extension (docs/rollouts.md#operators).
  const deployment = exchange.commands.find((c) => c.name() === 'deployment');
  if (deployment) rolloutCommands(deployment, base);
}
