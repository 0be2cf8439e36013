import type { Command } from 'commander';
import { isStartTime, type ManagementPolicyBody, managementPolicyProblem } from '#lib/nmp/policy-body';
import { act, type Base, group, leaf, str } from '../../command-kit.ts';
import type { Ctx } from '../../context.ts';
import { EXIT, fatal } from '../../errors.ts';
import { unexpectedStatus } from '../../exchange-client.ts';
import { readJsonFile, requireObject } from '../../input-file.ts';
import { printJson, sortedMap } from '../../output.ts';
import { confirmOrExit } from '../../prompt.ts';
import { checkManifestExists, compatibleNodes, getNmps, nmpPath } from './nmp-exchange.ts';
import { nmpStatusCommand } from './nmp-status.ts';
import { goNmp, NMP_TEMPLATE } from './nmp-view.ts';
import { exchangeSession } from './session.ts';

type Json = Record<string, unknown>;

const idTokOption = (cmd: Command) =>
  cmd.option(
    '-n, --node-id-tok <ID:TOK>',
    'The Horizon Exchange node ID and token to be used as credentials.',
  );

/**
 * `hzn exchange nmp new|add|list|remove|enable|disable|status` (docs/hzn.md#node-management-policies),
 * as upstream's open-horizon/anax `cli/exchange/nmp.go`.
 */
export function nmpCommands(exchange: Command, base: Base): void {
  const nmp = group(exchange, ['nmp'], 'List and manage node management policies in the Horizon Exchange.');

  act(
    base,
    leaf(nmp, ['new'], 'Display an empty node management policy template that can be filled in.'),
    async (ctx) => {
      ctx.io.out(`${NMP_TEMPLATE.join('\n')}\n`);
    },
  );

  const list = idTokOption(
    leaf(nmp, ['list', 'ls'], 'Display the node management policies from the Horizon Exchange.')
      .argument('[nmp-name]', 'List just this one node management policy.')
      .option('-l, --long', 'Display detailed output about the node management policies.')
      .option('--nodes', 'List all the nodes that apply for the given node management policy.'),
  );
  act(base, list, async (ctx, [given], opts) => {
    const { client, org } = await exchangeSession(ctx, opts, 'any');
    const name = given === '*' ? '' : (given ?? '');
    const target = nmpPath(org, name);
    const policies = await getNmps(client, target.path);
    if (policies === undefined && target.id)
      throw fatal(EXIT.NOT_FOUND, `NMP ${target.id} not found in org ${target.org}`);
    if (opts.nodes === true) {
      if (policies === undefined) return ctx.io.out('{}\n');
      const nodes: [string, string[]][] = [];
      for (const [key, policy] of Object.entries(policies))
        nodes.push([key, await compatibleNodes(client, target.org, policy)]);
      return printJson(ctx.io, sortedMap(nodes));
    }
    if (policies === undefined) return ctx.io.out('[]\n');
    if (!target.id && opts.long !== true) return printJson(ctx.io, Object.keys(policies).sort());
    printJson(ctx.io, sortedMap(Object.entries(policies).map(([k, v]) => [k, goNmp(v)] as [string, Json])));
  });

  const add = leaf(
    nmp,
    ['add'],
    "Add or replace a node management policy in the Horizon Exchange. Use 'hzn exchange nmp new' for an empty node management policy template.",
  )
    .argument('<nmp-name>', 'The name of the node management policy to add or overwrite.')
    .requiredOption(
      '-f, --json-file <file>',
      'The path of a JSON file containing the metadata necessary to create/update the node management policy in the Horizon Exchange. Specify -f- to read from stdin.',
    )
    .option(
      '--no-constraints',
      'Allow this node management policy to be published even though it does not have any constraints.',
    )
    .option('--applies-to', 'List all the nodes that will be compatible with this node management policy.');
  act(base, add, async (ctx, [name], opts) => {
    const file = str(opts.jsonFile) as string;
    const body = nmpFileBody(
      requireObject(await readJsonFile(ctx, file), file),
      file,
      opts.constraints === false,
    );
    const { client, org } = await exchangeSession(ctx, opts, 'user');
    const target = nmpPath(org, name as string);
    if (body.agentUpgradePolicy)
      await checkManifestExists(ctx, client, org, body.agentUpgradePolicy.manifest);
    const created = await client.call('POST', target.path, body);
    if (created.status === 403) {
      const updated = await client.call('PUT', target.path, body);
      if (updated.status === 404)
        throw fatal(
          EXIT.CLI_INPUT_ERROR,
          `Cannot create node management policy ${target.org}/${target.id}: ${messageOf(created)}`,
        );
      if (updated.status !== 201) throw unexpectedStatus('PUT', client.url(target.path), updated);
      ctx.io.out(`Node management policy ${target.org}/${target.id} updated in the Horizon Exchange\n`);
    } else if (created.status !== 201 && !ctx.dryRun) {
      throw unexpectedStatus('POST', client.url(target.path), created);
    } else if (!ctx.dryRun) {
      ctx.io.out(`Node management policy ${target.org}/${target.id} added in the Horizon Exchange\n`);
    }
    if (opts.appliesTo === true) {
      const nodes = await compatibleNodes(client, target.org, body as unknown as Json);
      ctx.io.out(nodes.length > 0 ? `${JSON.stringify(nodes, null, 2)}\n` : '[]\n');
    }
  });

  const remove = leaf(nmp, ['remove', 'rm'], 'Remove the node management policy in the Horizon Exchange.')
    .argument('<nmp-name>', 'The name of the node management policy to be removed.')
    .option('-f, --force', "Skip the 'are you sure?' prompt.");
  act(base, remove, async (ctx, [name], opts) => {
    const { client, org } = await exchangeSession(ctx, opts, 'user');
    const target = nmpPath(org, name as string);
    await confirmOrExit(
      ctx,
      `Are you sure you want to remove node management policy ${target.id} for org ${target.org} from the Horizon Exchange?`,
      opts.force === true,
    );
    const result = await client.expect('DELETE', target.path, [204, 404]);
    if (result.status === 404)
      throw fatal(EXIT.NOT_FOUND, `Node management policy ${target.id} not found in org ${target.org}`);
    ctx.io.out(`Node management policy ${target.org}/${target.id} removed from the Horizon Exchange.\n`);
  });

  const enable = leaf(nmp, ['enable'], 'Enable a node management policy in the Horizon Exchange.')
    .argument('[nmp-name]', 'The name of the node management policy to enable.')
    .option(
      '-s, --start-time <time>',
      'The start time of the enabled node management policy. Start time should be RFC3339 timestamp or "now"',
    )
    .option('-w, --start-window <seconds>', 'The start window of the enabled node management policy.');
  act(base, enable, async (ctx, [name], opts) => {
    const start = str(opts.startTime) ?? '';
    const window = str(opts.startWindow) ?? '';
    if (start && !isStartTime(start))
      throw fatal(
        EXIT.CLI_INPUT_ERROR,
        `Failed to parse start time: ${start}. The start time must be in RFC3339 format or set to "now".`,
      );
    if (window && !/^[+-]?\d+$/.test(window))
      throw fatal(
        EXIT.CLI_INPUT_ERROR,
        `Failed to parse start window: ${window}. The start window must be Integer.`,
      );
    await toggle(ctx, opts, name ?? '', true, (policy) => {
      if (policy.enabled === true && !start && !window) return false;
      if (start) policy.start = start;
      if (window) policy.startWindow = Number(window);
      return true;
    });
  });

  const disable = leaf(
    nmp,
    ['disable'],
    'Disable a node management policy in the Horizon Exchange.',
  ).argument('[nmp-name]', 'The name of the node management policy to disable.');
  act(base, disable, async (ctx, [name], opts) => {
    await toggle(ctx, opts, name ?? '', false, (policy) => policy.enabled === true);
  });

  nmpStatusCommand(nmp, base, idTokOption);
}

/** `enable`/`disable`: GET the NMP, change it, blank owner and times, empty lists as null, PUT. */
async function toggle(
  ctx: Ctx,
  opts: Record<string, unknown>,
  name: string,
  enabled: boolean,
  change: (policy: Json) => boolean,
): Promise<void> {
  const { client, org } = await exchangeSession(ctx, opts as never, 'user');
  const target = nmpPath(org, name);
  // The key is the -o org with the bare name, as upstream's (docs/hzn.md#node-management-policies).
  const fullName = `${org}/${target.id}`;
  const policies = await getNmps(client, target.path);
  if (!policies || Object.keys(policies).length === 0)
    throw fatal(EXIT.NOT_FOUND, `NMP ${target.id} not found in org ${target.org}`);
  const policy = goNmp(policies[fullName] ?? {});
  const word = enabled ? 'enabled' : 'disabled';
  if (!change(policy)) {
    ctx.io.out(`Node management policy ${fullName} is already ${word} in the Horizon Exchange\n`);
    return;
  }
  policy.enabled = enabled;
  for (const key of ['constraints', 'patterns'])
    if (Array.isArray(policy[key]) && (policy[key] as unknown[]).length === 0) policy[key] = null;
  delete policy.owner;
  delete policy.lastUpdated;
  delete policy.created;
  const result = await client.call('PUT', target.path, policy);
  if (result.status === 404)
    throw fatal(
      EXIT.CLI_INPUT_ERROR,
      `Cannot ${enabled ? 'enable' : 'disable'} node management policy ${fullName}: ${messageOf(result)}`,
    );
  if (result.status !== 201 && !ctx.dryRun) throw unexpectedStatus('PUT', client.url(target.path), result);
  ctx.io.out(`Node management policy ${fullName} ${word} in the Horizon Exchange\n`);
}

const messageOf = (result: { text: string }): string => {
  try {
    return String((JSON.parse(result.text) as Json).msg ?? '');
  } catch {
    return '';
  }
};

/**
 * The body `hzn exchange nmp add` sends, from the file as Go reads it into its struct (unknown
 * fields dropped; owner, created, lastUpdated and agentImagePolicy too, the Exchange keeps none of
 * them), `start` defaulted to now, then checked by the Exchange's own rules (lib/nmp/policy-body.ts).
 */
function nmpFileBody(file: Json, path: string, noConstraints: boolean): ManagementPolicyBody {
  const { owner: _o, created: _c, lastUpdated: _l, agentImagePolicy: _a, ...rest } = goNmp(file);
  const body = { ...rest, start: rest.start || 'now' } as unknown as ManagementPolicyBody;
  const problem = managementPolicyProblem(body);
  if (problem)
    throw fatal(EXIT.CLI_INPUT_ERROR, `Incorrect node management policy format in file ${path}: ${problem}`);
  const blank = (values: string[] | null | undefined) => (values ?? []).every((v) => v.trim() === '');
  if (!noConstraints && blank(body.constraints) && blank(body.patterns))
    throw fatal(
      EXIT.CLI_INPUT_ERROR,
      'The node management policy has no constraints which might result in the management policy being deployed to all nodes. Please specify --no-constraints to confirm that this is acceptable.',
    );
  if (body.agentUpgradePolicy && !body.agentUpgradePolicy.manifest)
    throw fatal(
      EXIT.CLI_INPUT_ERROR,
      'An AgentAutoUpgradePolicy was defined, but a manifest was not defined. Please specify a manifest that is stored in the CSS before attempting to add an NMP with an AgentAutoUpgradePolicy.',
    );
  return body;
}
