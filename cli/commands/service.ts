import type { Command } from 'commander';
import { AgentClient } from '../agent-client.ts';
import { act, type Base, group, leaf } from '../command-kit.ts';
import { EXIT, fatal } from '../errors.ts';
import { jsonBody } from '../exchange-client.ts';
import { printJson } from '../output.ts';

type Json = Record<string, unknown>;

/** `hzn service list`: the agent's active service definitions (docs/hzn-behaviour.md#hzn-service-list). */
export function serviceCommands(program: Command, base: Base): void {
  const service = group(
    program,
    ['service', 'serv'],
    'List or manage the services that are currently registered on this Horizon edge node.',
  );
  act(
    base,
    leaf(service, ['list', 'ls'], 'List the services running on this Horizon edge node.'),
    async (ctx) => {
      const agent = new AgentClient(ctx);
      const result = await agent.call('GET', 'service');
      if (result.status === 424)
        throw fatal(EXIT.HTTP_ERROR, "this command can not be run before running 'hzn register'");
      if (result.status !== 200)
        throw fatal(EXIT.HTTP_ERROR, `bad HTTP code from GET ${agent.url('service')}: ${result.status}`);
      const body = jsonBody<{ definitions?: { active?: Json[] } }>(result, agent.url('service'));
      const active = body.definitions?.active ?? [];
      printJson(
        ctx.io,
        active.map((d) => ({
          url: d.specRef ?? d.url,
          org: d.organization ?? d.org,
          version: d.version,
          arch: d.arch,
        })),
      );
    },
  );
}
