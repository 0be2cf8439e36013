import type { Command } from 'commander';
import { AgentClient } from '../agent-client.ts';
import { act, type Base, group, leaf } from '../command-kit.ts';
import { EXIT, fatal } from '../errors.ts';
import { goTime, printJson } from '../output.ts';

type Json = Record<string, unknown>;

/** `hzn node list`: GET /node and /status merged in upstream's field order (docs/hzn-behaviour.md#hzn-node-list). */
export function nodeCommands(program: Command, base: Base): void {
  const node = group(program, ['node'], 'List and manage general information about this Horizon edge node.');
  act(
    base,
    leaf(node, ['list', 'ls'], 'Display general information about this Horizon edge node.'),
    async (ctx) => {
      const agent = new AgentClient(ctx);
      const info = await agent.node<Json>();
      const status = await agent.getJson<Json>('status');
      if (!info.configstate)
        throw fatal(EXIT.ANAX_NOT_CONFIGURED_YET, 'Failed to get proper response from Horizon agent');
      printJson(ctx.io, nodeListView(info, status));
    },
  );
}

function nodeListView(info: Json, status: Json): Json {
  const configstate = (info.configstate ?? {}) as Json;
  const configuration = (status.configuration ?? {}) as Json;
  const registered = typeof info.organization === 'string' && info.organization !== '';
  const field = (key: string) => (info[key] === undefined || !registered ? null : info[key]);
  return {
    id: info.id ?? '',
    organization: field('organization'),
    pattern: field('pattern'),
    name: field('name'),
    nodeType: field('nodeType'),
    clusterNamespace: info.clusterNamespace ?? null,
    token_last_valid_time: timeOf(info.token_last_valid_time),
    token_valid: field('token_valid'),
    ha_group: field('ha_group'),
    configstate: { state: configstate.state ?? '', last_update_time: timeOf(configstate.last_update_time) },
    configuration: {
      exchange_api: configuration.exchange_api ?? '',
      ...(configuration.exchange_version ? { exchange_version: configuration.exchange_version } : {}),
      required_minimum_exchange_version: configuration.required_minimum_exchange_version ?? '',
      preferred_exchange_version: configuration.preferred_exchange_version ?? '',
      mms_api: configuration.mms_api ?? '',
      architecture: configuration.architecture ?? '',
      horizon_version: configuration.horizon_version ?? '',
    },
  };
}

const timeOf = (value: unknown) => (typeof value === 'number' ? goTime(value) : '');
