import type { Command } from 'commander';
import { act, type Base, group, leaf, str } from '../../command-kit.ts';
import { nonEmpty } from '../../config.ts';
import { EXIT, fatal } from '../../errors.ts';
import { enc, jsonBody, splitOrg } from '../../exchange-client.ts';
import { readJsonFile, requireObject } from '../../input-file.ts';
import { printJson, sortedMap } from '../../output.ts';
import { confirmOrExit } from '../../prompt.ts';
import { fullEvents, type SurfacedError } from '../eventlog.ts';
import { constraintsOf, propertiesOf } from './policy-file.ts';
import { exchangeSession } from './session.ts';

type Json = Record<string, unknown>;
const NODE_FIELDS = [
  'token',
  'name',
  'owner',
  'nodeType',
  'clusterNamespace',
  'isNamespaceScoped',
  'pattern',
  'registeredServices',
  'msgEndPoint',
  'softwareVersions',
  'lastHeartbeat',
  'publicKey',
  'arch',
  'userInput',
  'heartbeatIntervals',
  'ha_group',
  'lastUpdated',
];
const OPTIONAL = new Set(['clusterNamespace', 'lastUpdated']);

/**
 * `hzn exchange node list|create|remove|listpolicy|addpolicy|liststatus|listerrors`
 * (docs/hzn-behaviour.md#exchange-commands).
 */
export function exchangeNodeCommands(exchange: Command, base: Base): void {
  const node = group(exchange, ['node'], 'List and manage nodes in the Horizon Exchange.');
  const withCreds = (cmd: Command) =>
    cmd.option(
      '-n, --node-id-tok <id:tok>',
      'The Horizon Exchange node ID and token to be used as credentials.',
    );

  const list = withCreds(
    leaf(node, ['list', 'ls'], 'Display the node resources from the Horizon Exchange.')
      .argument('[node]', 'List just this one node.')
      .option('-l, --long', 'When listing all of the nodes, show the entire resource of each node.'),
  );
  act(base, list, async (ctx, [name], opts) => {
    const { client, org } = await exchangeSession(ctx, opts, 'any');
    const target = name ? splitOrg(org, name) : { org, id: '' };
    const path = `orgs/${enc(target.org)}/nodes${name ? `/${enc(target.id)}` : ''}`;
    const nodes: Record<string, Json> = {};
    // A large org's list comes in parts: our Exchange says where the rest starts (`next`).
    for (let after: string | undefined, first = true; first || after !== undefined; first = false) {
      const part = after === undefined ? path : `${path}?after=${enc(after)}`;
      const result = await client.expect('GET', part, [200, 404]);
      if (result.status === 404 && name)
        throw fatal(EXIT.NOT_FOUND, `node '${target.id}' not found in org ${target.org}`);
      if (result.status === 404) break;
      const body = jsonBody<{ nodes?: Record<string, Json>; next?: unknown }>(result, client.url(part));
      Object.assign(nodes, body.nodes ?? {});
      after = !name && typeof body.next === 'string' && body.next !== after ? body.next : undefined;
    }
    if (!name && opts.long !== true) {
      printJson(ctx.io, Object.keys(nodes));
      return;
    }
    const view = (n: Json) =>
      Object.fromEntries(
        NODE_FIELDS.filter((k) => n[k] !== undefined || !OPTIONAL.has(k)).map((k) => [k, n[k] ?? '']),
      );
    printJson(ctx.io, sortedMap(Object.entries(nodes).map(([k, v]) => [k, view(v)] as [string, Json])));
  });

  const create = leaf(node, ['create', 'cr'], 'Create the node resource in the Horizon Exchange.')
    .argument('[node]', 'The node to be created.')
    .argument('[token]', 'The token the new node should have.')
    .option('-n, --node-id-tok <id:tok>', 'The Horizon Exchange node ID and token to be created.')
    .option('-a, --arch <arch>', 'Your node architecture.', '')
    .option('-m, --name <name>', 'The name of your node.')
    .option('-T, --node-type <type>', 'The type of your node (device or cluster).', 'device');
  act(base, create, async (ctx, [id, token], opts) => {
    const given = str(opts.nodeIdTok);
    const [fromFlagId, fromFlagToken] = given ? splitCreds(given) : [undefined, undefined];
    const nodeId = id ?? fromFlagId;
    const nodeToken = token ?? fromFlagToken;
    if (!nodeId || !nodeToken)
      throw fatal(
        EXIT.CLI_INPUT_ERROR,
        'Either the node and token arguments or -n id:token must be specified.',
      );
    if (opts.nodeType !== 'device' && opts.nodeType !== 'cluster')
      throw fatal(
        EXIT.CLI_INPUT_ERROR,
        `Wrong node type specified: ${String(opts.nodeType)}. It should be 'device' or 'cluster'.`,
      );
    const { client, org } = await exchangeSession(ctx, { ...opts, nodeIdTok: undefined }, 'user');
    const path = `orgs/${enc(org)}/nodes/${enc(nodeId)}`;
    const existing = await client.call('GET', path);
    if (existing.status === 401)
      throw fatal(
        EXIT.CLI_INPUT_ERROR,
        `user '${client.creds?.split(':')[0]}' does not exist with the specified password.`,
      );
    if (existing.status === 200) {
      ctx.io.out('The node arch and node type will be ignored if they are specified.\n');
      await client.expect('PATCH', path, [200, 201], { token: nodeToken });
      ctx.io.out(`Node ${nodeId} updated.\n`);
      return;
    }
    const body = {
      token: nodeToken,
      name: nonEmpty(str(opts.name)) ?? nodeId,
      nodeType: opts.nodeType,
      isNamespaceScoped: false,
      pattern: '',
      registeredServices: [],
      msgEndPoint: '',
      softwareVersions: {},
      publicKey: '',
      arch: str(opts.arch) ?? '',
    };
    const created = await client.expect('PUT', `${path}?noheartbeat=true`, [201], body);
    const msg = (JSON.parse(created.text || '{}') as { msg?: string }).msg;
    if (msg) ctx.io.out(`${msg}\n`);
    ctx.io.out(`Node ${nodeId} created.\n`);
  });

  const remove = leaf(node, ['remove', 'rm'], 'Remove a node resource from the Horizon Exchange.')
    .argument('<node>', 'The node to remove.')
    .option('-f, --force', 'Skip the are you sure prompt.');
  act(base, remove, async (ctx, [name], opts) => {
    const { client, org } = await exchangeSession(ctx, opts, 'any');
    const target = splitOrg(org, name as string);
    await confirmOrExit(
      ctx,
      `Are you sure you want to remove node ${target.org}/${target.id} from the Horizon Exchange?`,
      opts.force === true,
    );
    const result = await client.expect(
      'DELETE',
      `orgs/${enc(target.org)}/nodes/${enc(target.id)}`,
      [204, 404],
    );
    if (result.status === 404)
      throw fatal(EXIT.NOT_FOUND, `node '${target.id}' not found in org ${target.org}`);
  });

  const listPolicy = withCreds(
    leaf(node, ['listpolicy', 'lsp'], 'Display the node policy from the Horizon Exchange.').argument(
      '<node>',
      'List policy for this node.',
    ),
  );
  act(base, listPolicy, async (ctx, [name], opts) => {
    const { client, org } = await exchangeSession(ctx, opts, 'any');
    const target = splitOrg(org, name as string);
    const path = `orgs/${enc(target.org)}/nodes/${enc(target.id)}`;
    const exists = await client.expect('GET', path, [200, 404]);
    if (exists.status === 404) throw fatal(EXIT.NOT_FOUND, `node '${target.org}/${target.id}' not found.`);
    const result = await client.expect('GET', `${path}/policy`, [200, 404]);
    const empty = {
      label: null,
      description: null,
      properties: null,
      constraints: null,
      deployment: null,
      management: null,
    };
    printJson(ctx.io, result.status === 404 ? empty : jsonBody(result, client.url(`${path}/policy`)), {
      escapeHtml: false,
      extraLine: true,
    });
  });

  const addPolicy = withCreds(
    leaf(node, ['addpolicy', 'addp'], 'Add or replace the node policy in the Horizon Exchange.')
      .argument('<node>', 'Add or replace policy for this node.')
      .requiredOption(
        '-f, --json-file <file>',
        'The path of a JSON file containing the metadata necessary to create/update the node policy. Specify -f- to read from stdin.',
      ),
  );
  act(base, addPolicy, async (ctx, [name], opts) => {
    const file = str(opts.jsonFile) as string;
    const policy = nodePolicyBody(requireObject(await readJsonFile(ctx, file), file));
    const { client, org } = await exchangeSession(ctx, opts, 'any');
    const target = splitOrg(org, name as string);
    const path = `orgs/${enc(target.org)}/nodes/${enc(target.id)}`;
    const exists = await client.expect('GET', path, [200, 404]);
    if (exists.status === 404) throw fatal(EXIT.NOT_FOUND, `node '${target.org}/${target.id}' not found.`);
    ctx.io.out(
      'Updating Node policy and re-evaluating all agreements based on this policy. Existing agreements might be cancelled and re-negotiated.\n',
    );
    await client.expect('PUT', `${path}/policy?noheartbeat=true`, [201], policy);
    ctx.io.out('Node policy updated.\n');
  });

  const listStatus = withCreds(
    leaf(node, ['liststatus', 'lst'], 'List the run-time status of the node.').argument(
      '<node>',
      'List status for this node',
    ),
  );
  act(base, listStatus, async (ctx, [name], opts) => {
    const { client, org } = await exchangeSession(ctx, opts, 'any');
    const target = splitOrg(org, name as string);
    const path = `orgs/${enc(target.org)}/nodes/${enc(target.id)}/status`;
    const result = await client.expect('GET', path, [200, 404]);
    if (result.status === 404)
      throw fatal(EXIT.NOT_FOUND, `node status not found for node '${target.org}/${target.id}'.`);
    printJson(ctx.io, statusView(jsonBody<Json>(result, client.url(path))));
  });

  const listErrors = withCreds(
    leaf(node, ['listerrors', 'lse'], 'List the node errors currently surfaced to the Exchange.')
      .argument('<node>', 'List surfaced errors for this node.')
      .option(
        '-l, --long',
        'Show the full eventlog object of the errors currently surfaced to the Exchange.',
      ),
  );
  act(base, listErrors, async (ctx, [name], opts) => {
    const { client, org } = await exchangeSession(ctx, opts, 'any');
    const target = splitOrg(org, name as string);
    const path = `orgs/${enc(target.org)}/nodes/${enc(target.id)}`;
    const exists = await client.expect('GET', path, [200, 404]);
    if (exists.status === 404) throw fatal(EXIT.NOT_FOUND, `node '${target.org}/${target.id}' not found.`);
    const result = await client.expect('GET', `${path}/errors`, [200, 404]);
    const errors =
      result.status === 404
        ? []
        : (jsonBody<{ errors?: SurfacedError[] | null }>(result, client.url(`${path}/errors`)).errors ?? []);
    printJson(ctx.io, opts.long === true ? await fullEvents(ctx, errors) : errors);
  });
}

/** anax's ExchangeNodeStatus field order (cli/exchange/node.go); `connectivity` only when not empty. */
function statusView(status: Json): Json {
  const connectivity = status.connectivity as Json | null | undefined;
  const services = (status.services as Json[] | null | undefined) ?? null;
  return {
    ...(connectivity && Object.keys(connectivity).length > 0 ? { connectivity } : {}),
    services:
      services?.map((s) => ({
        agreementId: s.agreementId ?? '',
        serviceUrl: s.serviceUrl ?? '',
        orgid: s.orgid ?? '',
        version: s.version ?? '',
        arch: s.arch ?? '',
        containerStatus: s.containerStatus ?? null,
        ...(s.operatorStatus != null ? { operatorStatus: s.operatorStatus } : {}),
        configState: s.configState ?? '',
      })) ?? null,
    runningServices: status.runningServices ?? '',
    ...(status.lastUpdated ? { lastUpdated: status.lastUpdated } : {}),
  };
}

/** A node policy as the Exchange stores it, validated, with upstream's `nodePolicyVersion: "v2"`. */
export function nodePolicyBody(file: Json): Json {
  const part = (value: unknown) => {
    const p = (value ?? {}) as Json;
    return { properties: propertiesOf(p.properties ?? []), constraints: constraintsOf(p.constraints) };
  };
  return {
    ...(file.label !== undefined ? { label: file.label } : {}),
    ...(file.description !== undefined ? { description: file.description } : {}),
    properties: propertiesOf(file.properties ?? []),
    constraints: constraintsOf(file.constraints),
    deployment: part(file.deployment),
    management: part(file.management),
    nodePolicyVersion: 'v2',
  };
}

/** `id:token` (an `org/` before the id is dropped). */
export function splitCreds(creds: string): [string, string] {
  const colon = creds.indexOf(':');
  const id = colon < 0 ? creds : creds.slice(0, colon);
  return [id.includes('/') ? id.slice(id.indexOf('/') + 1) : id, colon < 0 ? '' : creds.slice(colon + 1)];
}
