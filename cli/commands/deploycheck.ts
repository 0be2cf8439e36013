import type { Command } from 'commander';
import { AgentClient } from '../agent-client.ts';
import { act, type Base, collect, group, leaf, type Options, str } from '../command-kit.ts';
import type { Ctx } from '../context.ts';
import { EXIT, fatal } from '../errors.ts';
import { ExchangeClient, exchangeUrl, orgAndCreds, requireAnyCreds, requireOrg } from '../exchange-client.ts';
import { readJsonFile } from '../input-file.ts';
import { printJson } from '../output.ts';
import { type CheckKind, type CompCheckOutput, checkNode } from './deploycheck-checks.ts';
import {
  type DeploymentInput,
  deploymentById,
  deploymentFromFile,
  exchangeNode,
  type Json,
  type NodeInput,
} from './deploycheck-inputs.ts';
import { exchangeServices, serviceSourceOf } from './deploycheck-services.ts';

/**
 * `hzn deploycheck|dc policy|userinput|secretbinding|all` (anax cli/deploycheck, flags of
 * cli/hzn.go): whether a deployment policy or pattern can deploy to each node, and why not, per
 * service version. One node prints its verdict; several print a map keyed by node id.
 */
const NOT_HERE = ['haGroup', 'clusterNamespace', 'isNamespaceScoped'] as const;
const FLAG_NAMES: Record<(typeof NOT_HERE)[number], string> = {
  haGroup: '--ha-group',
  clusterNamespace: '-s',
  isNamespaceScoped: '--is-namespace-scoped',
};

export function deploycheckCommands(program: Command, base: Base): void {
  const dc = group(program, ['deploycheck', 'dc'], 'Check deployment compatibility.')
    .option(
      '-o, --org <org>',
      'The Horizon exchange organization ID. If not specified, HZN_ORG_ID will be used as a default.',
    )
    .option('-u, --user-pw <USER:PW>', 'Horizon exchange user credential to query exchange resources.')
    .option(
      '-c, --check-all',
      'Show the compatibility status of all the service versions referenced in the deployment policy.',
    )
    .option('-l, --long', 'Show policies and userinput used for the compatibility checking.');

  const common = (cmd: Command, kinds: CheckKind[], manyNodes: boolean, patterns: boolean) => {
    cmd
      .option('-a, --arch <arch>', 'The architecture of the node.')
      .option('-t, --node-type <type>', "The node type: 'device' or 'cluster'.")
      .option('-b, --deployment-pol-id <id>', 'The Horizon exchange deployment policy ID.')
      .option('-B, --deployment-pol <file>', 'The JSON input file name containing the deployment policy.')
      .option('--business-pol-id <id>')
      .option('--business-pol <file>')
      .option('--service <file>', 'The JSON input file name containing the service definition.', collect);
    if (manyNodes) cmd.option('-n, --node-id <id>', 'The Horizon exchange node ID, repeatable.', collect);
    else cmd.option('-n, --node-id <id>', 'The Horizon exchange node ID.');
    if (patterns)
      cmd
        .option('-p, --pattern-id <id>', 'The Horizon exchange pattern ID.')
        .option('-P, --pattern <file>', 'The JSON input file name containing the pattern.');
    act(base, cmd, (ctx, _args, opts) => runCheck(ctx, opts, kinds));
  };

  const policy = leaf(dc, ['policy', 'pol'], 'Check policy compatibility.')
    .option('-s, --cluster-namespace <ns>', 'The Kubernetes cluster namespace for a cluster node.')
    .option('--is-namespace-scoped', 'The cluster node is namespace scoped.')
    .option('--ha-group <name>', 'The name of an HA group.')
    .option('--node-pol <file>', 'The JSON input file name containing the node policy.')
    .option('--service-pol <file>', 'The JSON input file name containing the service policy.');
  common(policy, ['policy'], true, false);

  const userinput = leaf(dc, ['userinput', 'u'], 'Check user input compatibility.').option(
    '--node-ui <file>',
    'The JSON input file name containing the node user input.',
  );
  common(userinput, ['userinput'], false, true);

  const secretbinding = leaf(dc, ['secretbinding', 'sb'], 'Check secret bindings.').option(
    '-O, --node-org <org>',
    'The organization of the node.',
  );
  common(secretbinding, ['secretbinding'], false, true);

  const all = leaf(dc, ['all'], 'Check all compatibilities for a deployment.')
    .option('-s, --cluster-namespace <ns>', 'The Kubernetes cluster namespace for a cluster node.')
    .option('--is-namespace-scoped', 'The cluster node is namespace scoped.')
    .option('-O, --node-org <org>', 'The organization of the node.')
    .option('--ha-group <name>', 'The name of an HA group.')
    .option('--node-pol <file>', 'The JSON input file name containing the node policy.')
    .option('--node-ui <file>', 'The JSON input file name containing the node user input.')
    .option('--service-pol <file>', 'The JSON input file name containing the service policy.');
  common(all, ['policy', 'userinput', 'secretbinding'], true, true);
}

async function runCheck(ctx: Ctx, opts: Options, kinds: CheckKind[]): Promise<void> {
  for (const name of NOT_HERE)
    if (opts[name] !== undefined && opts[name] !== false)
      throw fatal(EXIT.CLI_INPUT_ERROR, `${FLAG_NAMES[name]} is not supported by this hzn yet.`);
  if (opts.nodeType !== undefined && opts.nodeType !== 'device')
    throw fatal(
      EXIT.CLI_INPUT_ERROR,
      `Invalid node type: ${String(opts.nodeType)}. Only 'device' is supported by this hzn.`,
    );
  const policyId = str(opts.deploymentPolId) ?? str(opts.businessPolId);
  const policyFile = str(opts.deploymentPol) ?? str(opts.businessPol);
  const patternId = str(opts.patternId);
  const patternFile = str(opts.pattern);
  if (policyId && policyFile) throw fatal(EXIT.CLI_INPUT_ERROR, '-b and -B are mutually exclusive.');
  if (patternId && patternFile) throw fatal(EXIT.CLI_INPUT_ERROR, '-p and -P are mutually exclusive.');
  const usesPolicy = !!(policyId || policyFile);
  const usesPattern = !!(patternId || patternFile);
  if (usesPolicy === usesPattern)
    throw fatal(
      EXIT.CLI_INPUT_ERROR,
      kinds.length === 1 && kinds[0] === 'policy'
        ? 'Either -b or -B must be specified.'
        : 'One of these flags must be specified: -b, -B, -p, or -P.',
    );
  const nodeIds = ([] as string[]).concat((opts.nodeId as string[] | string | undefined) ?? []);
  if (nodeIds.length > 0 && opts.nodePol)
    throw fatal(EXIT.CLI_INPUT_ERROR, '-n and --node-pol are mutually exclusive.');
  if (nodeIds.length > 0 && opts.nodeUi)
    throw fatal(EXIT.CLI_INPUT_ERROR, '-n and --node-ui are mutually exclusive.');

  const org = requireOrg(ctx, str(opts.org));
  const creds = requireAnyCreds(ctx, str(opts.userPw), undefined);
  const client = new ExchangeClient(ctx, exchangeUrl(ctx), orgAndCreds(org, creds, ctx.env));
  await client.checkVersion();

  const deployment: DeploymentInput = policyId
    ? await deploymentById(client, org, 'policy', policyId)
    : policyFile
      ? await deploymentFromFile(ctx, 'policy', policyFile, org)
      : patternId
        ? await deploymentById(client, org, 'pattern', patternId)
        : await deploymentFromFile(ctx, 'pattern', patternFile as string, org);

  const nodes =
    nodeIds.length > 0
      ? await Promise.all(nodeIds.map((id) => exchangeNode(client, org, id)))
      : [await nodeFromFilesOrAgent(ctx, opts)];
  const serviceFiles = ([] as string[]).concat((opts.service as string[] | string | undefined) ?? []);
  const services = await serviceSourceOf(ctx, exchangeServices(client), {
    services: serviceFiles,
    servicePolicy: str(opts.servicePol),
    org,
  });
  const options = {
    kinds,
    checkAll: opts.checkAll === true,
    long: opts.long === true,
    arch: str(opts.arch) ?? '',
    fromFiles: serviceFiles.length > 0,
  };
  const verdicts: Record<string, CompCheckOutput> = {};
  for (const node of nodes) {
    if (kinds.includes('policy') && deployment.kind === 'policy' && !node.policy)
      throw fatal(EXIT.CLI_GENERAL_ERROR, `No node policy found for this node ${node.id}.`);
    if (node.id && options.arch && node.arch && options.arch !== node.arch)
      throw fatal(
        EXIT.CLI_GENERAL_ERROR,
        `The input node architecture ${options.arch} does not match the Exchange node architecture ${node.arch} for node ${node.id}.`,
      );
    verdicts[node.id] = await checkNode({ services, client }, node, deployment, options);
  }
  const only = nodes.length === 1 ? Object.values(verdicts)[0] : undefined;
  printJson(ctx.io, only ?? verdicts, { escapeHtml: false });
}

/** No -n: the node policy and user input from files, else from the local agent (as upstream). */
async function nodeFromFilesOrAgent(ctx: Ctx, opts: Options): Promise<NodeInput> {
  const policyFile = str(opts.nodePol);
  const uiFile = str(opts.nodeUi);
  if (policyFile || uiFile) {
    return {
      id: '',
      arch: '',
      nodeType: 'device',
      policy: policyFile ? ((await readJsonFile(ctx, policyFile)) as Json) : undefined,
      userInput: uiFile ? ((await readJsonFile(ctx, uiFile)) as unknown[]) : undefined,
    };
  }
  ctx.io.out('Neither node id nor node policy is specified. Getting node policy from the local node.\n');
  const agent = new AgentClient(ctx);
  const node = await agent.node<Json>();
  const status = await agent.getJson<{ configuration?: { architecture?: string } }>('status');
  return {
    id: node.organization ? `${String(node.organization)}/${String(node.id)}` : '',
    arch: status.configuration?.architecture ?? '',
    nodeType: String(node.nodeType || 'device'),
    policy: await agent.getJson<Json>('node/policy'),
    userInput: await agent.getJson<unknown[]>('node/userinput'),
  };
}
