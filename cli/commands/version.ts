import type { Command } from 'commander';
import { AgentClient } from '../agent-client.ts';
import { act, type Base, leaf } from '../command-kit.ts';
import { FatalError } from '../errors.ts';
import { parseJson } from '../exchange-client.ts';
import { CLI_VERSION } from '../version.ts';

/** `hzn version`: both versions; the agent being down is not an error (docs/hzn-behaviour.md#hzn-version). */
export function versionCommand(program: Command, base: Base): void {
  act(base, leaf(program, ['version'], 'Show the Horizon version.'), async (ctx) => {
    ctx.io.out(`Horizon CLI version: ${CLI_VERSION}\n`);
    let agent = 'failed to get.';
    try {
      const result = await new AgentClient(ctx).call('GET', 'status');
      const status = parseJson(result.text) as { configuration?: { horizon_version?: string } } | undefined;
      if (result.status === 200 && status?.configuration?.horizon_version)
        agent = status.configuration.horizon_version;
    } catch (err) {
      if (!(err instanceof FatalError)) throw err;
    }
    ctx.io.out(`Horizon Agent version: ${agent}\n`);
  });
}
