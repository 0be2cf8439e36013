import type { Command } from 'commander';
import { rolloutPlan } from '#lib/rollout/plan';
import { act, type Base, collect, group, leaf, type Options, str } from '../../command-kit.ts';
import type { Ctx } from '../../context.ts';
import { EXIT, fatal } from '../../errors.ts';
import { type ExchangeClient, enc, jsonBody, splitOrg, unexpectedStatus } from '../../exchange-client.ts';
import type { HttpResult } from '../../http.ts';
import { readJsonFile } from '../../input-file.ts';
import { printJson } from '../../output.ts';
import { confirmOrExit } from '../../prompt.ts';
import { exchangeSession } from './session.ts';

/**
 * `hzn exchange deployment rollout plan|set|remove|status|dryrun|pause|resume|promote|abort|retry`
 * (docs/rollouts.md#operators): our extension, a deployment policy's staged rollout. Upstream's
 * `hzn` has no such commands; these follow the style of the deployment commands beside them.
 */
export function rolloutCommands(deployment: Command, base: Base): void {
  const rollout = group(
    deployment,
    ['rollout'],
    "Manage the staged rollout of a deployment policy's new versions.",
  );
  const target = async (ctx: Ctx, opts: Options, name: string | undefined) => {
    const { client, org } = await exchangeSession(ctx, opts, 'any');
    const t = splitOrg(org, name as string);
    return { client, ...t, path: `orgs/${enc(t.org)}/business/policies/${enc(t.id)}/rollout` };
  };
  const policyArg = (cmd: Command) => cmd.argument('<policy>', 'The deployment policy ([org/]name).');

  const show = (names: string[], description: string, sub: string, missing: string) =>
    act(base, policyArg(leaf(rollout, names, description)), async (ctx, [name], opts) => {
      const t = await target(ctx, opts, name);
      const result = await t.client.expect('GET', `${t.path}${sub}`, [200, 404]);
      if (result.status === 404) throw fatal(EXIT.NOT_FOUND, `${missing} ${t.org}/${t.id}`);
      printJson(ctx.io, jsonBody(result, t.client.url(`${t.path}${sub}`)));
    });
  show(
    ['plan'],
    "Display the policy's rollout plan and the operator actions on it.",
    '',
    'No rollout plan for policy',
  );
  show(
    ['status'],
    "Display the rollout's status as each agbot serving the policy reports it.",
    '/status',
    'No rollout status for policy',
  );
  show(
    ['dryrun'],
    'Display which nodes go in which wave, as the agbots computed it from the current plan.',
    '/plan',
    'No rollout plan for policy',
  );

  const set = policyArg(
    leaf(rollout, ['set'], "Set (add or replace) the policy's rollout plan."),
  ).requiredOption(
    '-f, --json-file <file>',
    'The path of a JSON file containing the rollout plan. Specify -f- to read from stdin.',
  );
  act(base, set, async (ctx, [name], opts) => {
    const file = str(opts.jsonFile) as string;
    const parsed = rolloutPlan.safeParse(await readJsonFile(ctx, file));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path.join('.') || '(the plan)';
      throw fatal(EXIT.CLI_INPUT_ERROR, `rollout plan in ${file}: ${field}: ${issue?.message}`);
    }
    const t = await target(ctx, opts, name);
    const result = await t.client.call('PUT', t.path, parsed.data);
    if (result.status === 404) throw fatal(EXIT.NOT_FOUND, `Policy ${t.org}/${t.id} not found.`);
    if (result.status !== 201) throw refused(t.client, 'PUT', t.path, result);
    ctx.io.out(`Rollout plan for deployment policy ${t.org}/${t.id} set\n`);
  });

  const remove = policyArg(
    leaf(
      rollout,
      ['remove', 'rm'],
      "Remove the policy's rollout plan (every node then gets the top version).",
    ),
  ).option('-f, --force', 'Skip the are you sure prompt.');
  act(base, remove, async (ctx, [name], opts) => {
    const t = await target(ctx, opts, name);
    await confirmOrExit(
      ctx,
      `Are you sure you want to remove the rollout plan of deployment policy ${t.org}/${t.id}? Every node will be moved to the policy's top version.`,
      opts.force === true,
    );
    const result = await t.client.expect('DELETE', t.path, [204, 404]);
    if (result.status === 404) throw fatal(EXIT.NOT_FOUND, `No rollout plan for policy ${t.org}/${t.id}`);
    ctx.io.out(`Rollout plan for deployment policy ${t.org}/${t.id} removed\n`);
  });

  const action = (
    cmd: Command,
    verb: string,
    body: (args: (string | undefined)[], opts: Options) => unknown,
  ) =>
    act(base, cmd, async (ctx, args, opts) => {
      const t = await target(ctx, opts, args[0]);
      const path = `${t.path}/${verb}`;
      const result = await t.client.call('POST', path, body(args, opts));
      if (result.status === 404) throw fatal(EXIT.NOT_FOUND, `No rollout plan for policy ${t.org}/${t.id}`);
      if (result.status !== 201) throw refused(t.client, 'POST', path, result);
      ctx.io.out(
        `Rollout of deployment policy ${t.org}/${t.id}: ${verb} recorded; the agbots apply it at their next round\n`,
      );
    });

  action(
    policyArg(
      leaf(rollout, ['pause'], 'Stop admitting nodes; nodes already updated stay as they are.'),
    ).option('--reason <text>', 'Why (shown with the rollout).'),
    'pause',
    (_args, opts) => (str(opts.reason) ? { reason: str(opts.reason) } : {}),
  );
  action(
    policyArg(leaf(rollout, ['resume'], 'Go on after a pause; failures seen so far no longer count.')),
    'resume',
    () => ({}),
  );
  action(
    policyArg(
      leaf(rollout, ['promote'], 'Approve a wave with manual approval (default: the next one).'),
    ).argument('[wave]', 'The wave index (0 is the first).'),
    'promote',
    ([, wave]) => {
      if (wave === undefined) return {};
      if (!/^\d+$/.test(wave))
        throw fatal(EXIT.CLI_INPUT_ERROR, `wave must be a wave index (0, 1, ...), not "${wave}"`);
      return { wave: Number(wave) };
    },
  );
  action(
    policyArg(
      leaf(rollout, ['abort'], 'Abort the rollout now: pause it, or roll the updated nodes back.'),
    ).option('--action <pause|rollback>', "What the abort does (default: the plan's onAbort)."),
    'abort',
    (_args, opts) => {
      const chosen = str(opts.action);
      if (chosen === undefined) return {};
      if (chosen !== 'pause' && chosen !== 'rollback')
        throw fatal(EXIT.CLI_INPUT_ERROR, `--action must be pause or rollback, not "${chosen}"`);
      return { action: chosen };
    },
  );
  action(
    policyArg(
      leaf(rollout, ['retry'], 'Put the failed nodes (or the nodes named) back in line for the new version.'),
    ).option('--node <org/node>', 'A node to retry (repeatable); without it, every failed node.', collect),
    'retry',
    (_args, opts) => {
      const nodes = (opts.node as string[] | undefined) ?? [];
      return nodes.length > 0 ? { nodes } : { failed: true };
    },
  );
}

/** The Exchange's 400/403/409 as the CLI's error, with the field the Exchange named. */
function refused(client: ExchangeClient, method: string, path: string, result: HttpResult) {
  if (result.status === 400 || result.status === 409) {
    let msg: string | undefined;
    try {
      msg = (JSON.parse(result.text) as { msg?: string }).msg;
    } catch {
      msg = undefined;
    }
    return fatal(EXIT.CLI_INPUT_ERROR, msg ?? `the Exchange answered ${result.status}`);
  }
  return unexpectedStatus(method, client.url(path), result);
}
