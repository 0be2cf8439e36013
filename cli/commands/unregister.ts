import type { Command } from 'commander';
import { AgentClient } from '../agent-client.ts';
import { act, type Base, leaf } from '../command-kit.ts';
import type { Ctx } from '../context.ts';
import { EXIT, fatal } from '../errors.ts';
import { confirmOrExit } from '../prompt.ts';

type Json = Record<string, unknown>;

/** `hzn unregister [-f] [-r] [-t min]` (docs/hzn-behaviour.md#hzn-unregister); `-D` deep clean is host-specific and not done. */
export function unregisterCommand(program: Command, base: Base): void {
  const cmd = leaf(
    program,
    ['unregister', 'unreg'],
    'Unregister and reset this Horizon edge node so that it is ready to be registered again.',
  )
    .option('-f, --force', 'Skip the are you sure prompt.')
    .option('-r, --remove', 'Also remove this node resource from the Horizon exchange.')
    .option(
      '-D, --deep-clean',
      'Also remove all the previous registration information (not supported: reported and skipped).',
    )
    .option(
      '-t, --timeout <minutes>',
      'The number of minutes to wait for all the agreements to be terminated (0: no timeout).',
      '0',
    )
    .option('-C, --container', 'Remove the agent container too (only with -D).');
  act(base, cmd, async (ctx, _args, opts) => {
    if (opts.container === true && opts.deepClean !== true)
      throw fatal(EXIT.CLI_INPUT_ERROR, '-C can only be used with -D.');
    const minutes = Number(opts.timeout);
    if (!Number.isInteger(minutes) || minutes < 0)
      throw fatal(
        EXIT.CLI_INPUT_ERROR,
        `--timeout must be a non-negative integer, not ${String(opts.timeout)}`,
      );
    await confirmOrExit(ctx, 'Are you sure you want to unregister this Horizon node?', opts.force === true);
    const agent = new AgentClient(ctx);
    const node = await agent.node<Json>();
    if (opts.deepClean === true)
      ctx.io.out('Note: -D (deep clean of the host) is not supported by this hzn and is skipped.\n');
    if (!node.organization) {
      ctx.io.out('The node is not registered.\n');
      return;
    }
    ctx.io.out(
      opts.remove === true
        ? 'Unregistering this node, cancelling all agreements, stopping all workloads, removing this node from the Exchange, and restarting Horizon...\n'
        : 'Unregistering this node, cancelling all agreements, stopping all workloads, and restarting Horizon...\n',
    );
    const query = `node?block=true${opts.remove === true ? '&removeNode=true' : ''}`;
    const result = await withProgress(ctx, agent, minutes, agent.call('DELETE', query));
    if (result.status === 503) {
      ctx.io.out('WARNING: The node is unregistered, but an error occurred during unregistration.\n');
      ctx.io.out(`The error was: ${result.text}\n`);
    } else if (result.status !== 200 && result.status !== 204) {
      ctx.io.err(`Error: bad HTTP code ${result.status} from DELETE ${agent.url(query)}: ${result.text}\n`);
      ctx.io.out(
        "The node was not successfully unregistered, please use 'hzn unregister -D' to clean up the node.\n",
      );
      return;
    }
    await waitUnconfigured(ctx, agent);
    ctx.io.out("Horizon node unregistered. You may now run 'hzn register ...' again, if desired.\n");
  });
}

/** Every 15 s while the blocking DELETE runs: the agreements still to terminate. */
async function withProgress<T>(ctx: Ctx, agent: AgentClient, minutes: number, call: Promise<T>): Promise<T> {
  const started = ctx.io.now();
  // A real timer, cleared when the call ends: the progress never outlives the DELETE.
  const timer = setInterval(() => {
    const left =
      minutes > 0 ? Math.max(0, Math.round(minutes * 60 - (ctx.io.now() - started) / 1000)) : undefined;
    ctx.io.out(
      `Waiting for Horizon node unregister to complete: ${left === undefined ? 'No Timeout specified' : `Timeout in ${left} seconds`} ...\n`,
    );
    void agent
      .call('GET', 'agreement')
      .then((body) => {
        const parsed =
          body.status === 200 ? (JSON.parse(body.text) as { agreements?: { active?: unknown[] } }) : {};
        ctx.io.out(`${parsed.agreements?.active?.length ?? 0} agreements remaining to be terminated.\n`);
      })
      .catch(() => {});
  }, 15_000);
  try {
    return await call;
  } finally {
    clearInterval(timer);
  }
}

/** Polls GET /node every 3 s for up to 180 s until the agent reports unconfigured (or 404). */
async function waitUnconfigured(ctx: Ctx, agent: AgentClient): Promise<void> {
  const deadline = ctx.io.now() + 180_000;
  let announced = false;
  for (;;) {
    const result = await agent.call('GET', 'node');
    // 404: the unregistration has completed (docs/agent.md); an unconfigured node answers the same.
    if (result.status === 404) return;
    const state =
      result.status === 200
        ? (JSON.parse(result.text) as { configstate?: { state?: string } }).configstate?.state
        : undefined;
    if (state === 'unconfigured') return;
    if (ctx.io.now() > deadline)
      throw fatal(EXIT.CLI_GENERAL_ERROR, 'Timeout waiting for the node to become unconfigured.');
    if (!announced)
      ctx.io.out('Waiting for agent service to restart and checking the node configuration state...\n');
    announced = true;
    await ctx.io.sleep(3000);
  }
}
