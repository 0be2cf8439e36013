import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import { AgentClient } from '../agent-client.ts';
import { act, type Base, leaf, type Options, str } from '../command-kit.ts';
import { nonEmpty } from '../config.ts';
import type { Ctx } from '../context.ts';
import { EXIT, FatalError, fatal } from '../errors.ts';
import { ExchangeClient, exchangeUrl, orgAndCreds } from '../exchange-client.ts';
import { readJsonFile, requireObject } from '../input-file.ts';
import { nodePolicyBody, splitCreds } from './exchange/node.ts';
import { notePolicy } from './policy.ts';
import { prepareExchangeNode } from './register-exchange.ts';
import { userInputOf } from './register-input.ts';
import { waitForServices } from './register-wait.ts';

type Json = Record<string, unknown>;
const NODE_ID = /^[\p{L}\p{N}!\-*+()?.,:&@_]+$/u;

/** `hzn register` (docs/hzn-behaviour.md#hzn-register): the Exchange node, its policy, then the agent, then configured. */
export function registerCommand(program: Command, base: Base): void {
  const cmd = leaf(program, ['register', 'reg'], 'Register this edge node with the management hub.')
    .argument('[nodeorg]', 'The Horizon exchange organization ID that the node should be registered in.')
    .argument(
      '[pattern]',
      'The Horizon exchange pattern that describes what workloads should be deployed to this node.',
    )
    .option(
      '-o, --nodeorg <org>',
      'The Horizon exchange organization ID that the node should be registered in. HZN_ORG_ID is the default.',
    )
    .option(
      '-p, --pattern <pattern>',
      'The Horizon exchange pattern that describes what workloads should be deployed to this node.',
    )
    .option(
      '-n, --node-id-tok <id:tok>',
      'The Horizon exchange node ID and token (HZN_EXCHANGE_NODE_AUTH is the default).',
    )
    .option(
      '-u, --user-pw <user:pw>',
      'User credentials to create the node resource in the Horizon exchange if it does not already exist (HZN_EXCHANGE_USER_AUTH is the default).',
    )
    .option(
      '-m, --name <name>',
      'The name of the node. If not specified, it will be the same as the node id.',
    )
    .option(
      '-f, --input-file <file>',
      'A JSON file that sets or overrides user input variables needed by the services that will be deployed to this node. Specify -f- to read from stdin.',
    )
    .option('--policy <file>', 'A JSON file that sets or overrides the node policy for this node.')
    .option(
      '--ha-group <group>',
      'The name of the HA group that this node will be added to (not supported here).',
    )
    .option(
      '-s, --service <url>',
      "Wait for the named service to start executing on this node ('*' for all services of the pattern).",
    )
    .option('--serviceorg <org>', 'The org of the service to wait for on this node.')
    .option('-t, --timeout <seconds>', 'The number of seconds for the --service to start.', '60');
  act(base, cmd, async (ctx, [posOrg, posPattern], opts) => registerNode(ctx, posOrg, posPattern, opts));
}

async function registerNode(
  ctx: Ctx,
  posOrg: string | undefined,
  posPattern: string | undefined,
  opts: Options,
): Promise<void> {
  if ((posOrg || posPattern) && (opts.nodeorg || opts.pattern))
    throw fatal(
      EXIT.CLI_INPUT_ERROR,
      '-o and -p are mutually exclusive with the nodeorg and pattern arguments.',
    );
  const org = nonEmpty(posOrg) ?? nonEmpty(str(opts.nodeorg)) ?? nonEmpty(ctx.env.HZN_ORG_ID);
  if (!org)
    throw fatal(
      EXIT.CLI_INPUT_ERROR,
      'Please specify the node organization id (the nodeorg argument, -o or HZN_ORG_ID).',
    );
  let pattern = nonEmpty(posPattern) ?? nonEmpty(str(opts.pattern)) ?? nonEmpty(ctx.env.HZN_PATTERN) ?? '';
  const service = str(opts.service);
  if (opts.serviceorg && !service)
    throw fatal(EXIT.CLI_INPUT_ERROR, '--serviceorg can only be used with -s.');
  if (service === '*' && (!pattern || opts.serviceorg))
    throw fatal(EXIT.CLI_INPUT_ERROR, "-s '*' needs a pattern and no --serviceorg.");
  const timeout = Number(opts.timeout);
  if (!Number.isInteger(timeout) || timeout <= 0)
    throw fatal(EXIT.CLI_INPUT_ERROR, `--timeout must be a positive integer, not ${String(opts.timeout)}`);
  if (opts.haGroup) throw fatal(EXIT.CLI_INPUT_ERROR, '--ha-group is not supported by this hzn.');
  const userCreds = nonEmpty(str(opts.userPw)) ?? nonEmpty(ctx.env.HZN_EXCHANGE_USER_AUTH);
  const nodeCreds = nonEmpty(str(opts.nodeIdTok)) ?? nonEmpty(ctx.env.HZN_EXCHANGE_NODE_AUTH);
  let [id, token] = nodeCreds ? splitCreds(nodeCreds) : ['', ''];

  // Files first: a bad file fails before anything is written anywhere.
  const inputFile = str(opts.inputFile);
  let userInput: unknown[] | undefined;
  if (inputFile) {
    ctx.io.out(`Reading input file ${inputFile}...\n`);
    userInput = userInputOf(await readJsonFile(ctx, inputFile, EXIT.CLI_INPUT_ERROR), inputFile);
  }
  const policyFile = str(opts.policy);
  let policy: Json | undefined;
  if (policyFile) {
    const given = requireObject(await readJsonFile(ctx, policyFile, EXIT.CLI_INPUT_ERROR), policyFile);
    notePolicy(ctx, given);
    policy = nodePolicyBody(given);
  }

  const base = exchangeUrl(ctx);
  const versionCreds = userCreds ?? (nodeCreds ? `${id}:${token}` : undefined);
  await new ExchangeClient(
    ctx,
    base,
    versionCreds ? orgAndCreds(org, versionCreds, ctx.env) : undefined,
  ).checkVersion();
  const agent = new AgentClient(ctx);
  const agentNode = await agent.node<Json>();
  if (!id && typeof agentNode.id === 'string' && agentNode.id) {
    id = agentNode.id;
    ctx.io.out(`Using node ID '${id}' from the Horizon agent\n`);
  }
  if (id && !NODE_ID.test(id))
    throw fatal(EXIT.CLI_INPUT_ERROR, `The node id ${id} contains invalid characters.`);
  await agent.getJson<Json>('status');
  ctx.io.out(`Horizon Exchange base URL: ${base}\n`);
  const state = (agentNode.configstate as Json | undefined)?.state;
  if (state !== 'unconfigured')
    throw fatal(
      EXIT.HTTP_ERROR,
      "this Horizon node is already registered or in the process of being registered. If you want to register it differently, run 'hzn unregister' first.",
    );
  if (!id) {
    id = randomBytes(20).toString('hex');
    ctx.io.out(`Generated random node ID: ${id}.\n`);
  }
  if (!token) {
    token = randomBytes(66).toString('base64').replace(/[+/]/g, 'x').slice(0, 88);
    ctx.io.out('Generated random node token\n');
  }
  const name = nonEmpty(str(opts.name)) ?? id;

  pattern = await prepareExchangeNode(ctx, { base, org, id, token, name, pattern, userCreds, policy });

  ctx.io.out("Initializing the Horizon node with node type 'device'...\n");
  const device = {
    id,
    organization: org,
    pattern,
    name,
    nodeType: 'device',
    clusterNamespace: null,
    token,
    ha_group: '',
  };
  const init = await agent.call('POST', 'node', device);
  if (init.status === 409 && !init.text)
    throw fatal(
      EXIT.HTTP_ERROR,
      "this Horizon node is already registered or in the process of being registered. If you want to register it differently, run 'hzn unregister' first.",
    );
  if (init.status < 200 || init.status > 299) {
    ctx.io.err(`Error initializing the node: ${init.text}\n`);
    return rollback(ctx, agent);
  }
  try {
    if (userInput) {
      ctx.io.out('Setting user inputs...\n');
      await agent.expect('POST', 'node/userinput', [200, 201], userInput);
    } else {
      ctx.io.out(
        'Note: no input file was specified. This is only valid if none of the services need variables set.\n',
      );
      ctx.io.out(
        "However, if there is 'userInput' specified in the node already in the Exchange, the userInput will be used.\n",
      );
    }
    ctx.io.out('Changing Horizon state to configured to register this node with Horizon...\n');
    await agent.expect('PUT', 'node/configstate', [200, 201], { state: 'configured' });
  } catch (err) {
    if (!(err instanceof FatalError)) throw err;
    ctx.io.err(`Error setting node state to configured: ${err.message}\n`);
    return rollback(ctx, agent);
  }
  if (!service) {
    ctx.io.out(
      "Horizon node is registered. Workload agreement negotiation should begin shortly. Run 'hzn agreement list' to view.\n",
    );
    return;
  }
  ctx.io.out('Horizon node is registered. Workload services should begin executing shortly.\n');
  await waitForServices(ctx, agent, {
    service,
    serviceOrg: str(opts.serviceorg) ?? org,
    timeoutSeconds: timeout,
  });
}

/** Upstream's undo: unregister (blocking) so the node is left unregistered, then exit 99. */
async function rollback(ctx: Ctx, agent: AgentClient): Promise<never> {
  ctx.io.out(
    'Critical error encountered in registration. Attempting to undo registration steps to leave node in the unregistered state.\n',
  );
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const result = await agent.call('DELETE', 'node?block=true').catch(() => undefined);
    if (result && [200, 204, 404].includes(result.status)) break;
    await ctx.io.sleep(1000);
  }
  throw fatal(EXIT.INTERNAL_ERROR, 'Registration failed. Node successfully returned to unregistered state.');
}
