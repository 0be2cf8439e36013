import type { Command } from 'commander';
import { managementPolicy, type NodePolicyDoc } from '#lib/nmp/applies';
import { satisfies } from '#lib/protocol/constraint-eval';
import type { Property } from '#lib/protocol/policy-document';
import { act, type Base, group, leaf, str } from '../../command-kit.ts';
import { EXIT, fatal } from '../../errors.ts';
import { type ExchangeClient, enc, jsonBody, splitOrg } from '../../exchange-client.ts';
import { printJson, sortedMap } from '../../output.ts';
import { getNmps, orgNodes } from './nmp-exchange.ts';
import { goStatus, statusOf } from './nmp-view.ts';
import { exchangeSession } from './session.ts';

type Json = Record<string, unknown>;

/**
 * `hzn exchange node management|mgmt list|status|reset <node>` (docs/hzn.md#node-management-policies),
 * as upstream's open-horizon/anax `cli/exchange/node.go` (NodeManagementList, …Status, …Reset).
 */
export function nodeManagementCommands(node: Command, base: Base): void {
  const management = group(
    node,
    ['management', 'mgmt'],
    'List and manage node management resources in the Horizon Exchange',
  );
  const idTok = (cmd: Command) =>
    cmd.option(
      '-n, --node-id-tok <ID:TOK>',
      'The Horizon Exchange node ID and token to be used as credentials.',
    );

  const list = idTok(
    leaf(
      management,
      ['list', 'ls'],
      'List the compatible node management policies for the node. Only policies that are enabled will be displayed unless the -a flag is specified.',
    )
      .argument('<node>', 'List node management policies for this node')
      .option('-a, --all', "Include disabled NMP's."),
  );
  act(base, list, async (ctx, [given], opts) => {
    const { client, org } = await exchangeSession(ctx, opts, 'any');
    const { org: nodeOrg, id } = splitOrg(org, given as string);
    const node = (await orgNodes(client, nodeOrg, id))[`${nodeOrg}/${id}`];
    if (!node) throw fatal(EXIT.NOT_FOUND, `node '${id}' not found in org ${nodeOrg}`);
    if (!node.publicKey)
      throw fatal(EXIT.CLI_INPUT_ERROR, `node '${id}' is not registered with the exchange in org ${nodeOrg}`);
    const policyPath = `orgs/${enc(nodeOrg)}/nodes/${enc(id)}/policy`;
    const answer = await client.expect('GET', policyPath, [200, 404]);
    if (answer.status === 404)
      throw fatal(EXIT.NOT_FOUND, `Node policy for ${id} not found in org ${nodeOrg}`);
    const mine = managementPolicy(jsonBody<NodePolicyDoc>(answer, client.url(policyPath)));
    const policies = await getNmps(client, `orgs/${enc(nodeOrg)}/managementpolicies`);
    if (policies === undefined) return ctx.io.out('[]\n');
    const pattern = String(node.pattern ?? '');
    const shown: [string, string][] = [];
    for (const [key, nmp] of Object.entries(policies)) {
      if (nmp.enabled !== true && opts.all !== true) continue;
      const fits = pattern
        ? patternCompatible(nodeOrg, pattern, (nmp.patterns as string[] | null) ?? [])
        : satisfies(mine.constraints, (nmp.properties as Property[] | null) ?? []).ok &&
          satisfies((nmp.constraints as string[] | null) ?? [], mine.properties).ok;
      if (fits) shown.push([key, nmp.enabled === true ? 'enabled' : 'disabled']);
    }
    printJson(ctx.io, sortedMap(shown));
  });

  const status = idTok(
    leaf(management, ['status'], 'List the node management policy statuses for this node.')
      .argument('<node>', 'List node management policy statuses for this node.')
      .option('-p, --policy <nmp>', 'Filter output to include just this one node managment policy.')
      .option('-l, --long', 'Show the entire contents of each node management policy status object.'),
  );
  act(base, status, async (ctx, [given], opts) => {
    const { client, org } = await exchangeSession(ctx, opts, 'any');
    const { org: nodeOrg, id } = splitOrg(org, given as string);
    const statuses = await nodeStatuses(client, nodeOrg, id, true);
    const policy = str(opts.policy) ?? '';
    const kept = Object.entries(statuses ?? {}).filter(
      ([key]) => !policy || splitOrg(org, key).id === policy,
    );
    if (policy && kept.length === 0)
      throw fatal(EXIT.NOT_FOUND, `Node ${id} does not contain a status for ${policy} in org ${nodeOrg}`);
    if (opts.long === true)
      printJson(ctx.io, sortedMap(kept.map(([k, s]) => [k, goStatus(s)] as [string, Json])));
    else printJson(ctx.io, sortedMap(kept.map(([k, s]) => [k, statusOf(s)] as [string, string])));
  });

  const reset = idTok(
    leaf(
      management,
      ['reset'],
      'Re-evaluate the node management policy (nmp) for this node. Run this command to retry a nmp when the upgrade failed and the problem is fixed. Do not run this command when the node is still in the middle of an upgrade.',
    )
      .argument('<node>', 'Re-evaluate node management policy for this node.')
      .option(
        '-p, --policy <nmp>',
        'The name of the node managment policy to be re-evaluated. If omitted, all of the node management policies will be re-evaluated for this node.',
      ),
  );
  act(base, reset, async (ctx, [given], opts) => {
    const { client, org } = await exchangeSession(ctx, opts, 'any');
    const { org: nodeOrg, id } = splitOrg(org, given as string);
    const wanted = str(opts.policy) ? splitOrg(nodeOrg, str(opts.policy) as string).id : '';
    const statuses = await nodeStatuses(client, nodeOrg, id, false);
    if (statuses === undefined) {
      ctx.io.out(`No management status found for node ${id} in org ${nodeOrg}\n`);
      return;
    }
    let found = false;
    for (const [key, current] of Object.entries(statuses).sort(([a], [b]) => (a < b ? -1 : 1))) {
      const name = splitOrg(org, key).id;
      if (wanted && name !== wanted) continue;
      const body = goStatus(current);
      (body.agentUpgradePolicyStatus as Json).status = 'reset';
      await client.expect(
        'PUT',
        `orgs/${enc(nodeOrg)}/nodes/${enc(id)}/managementStatus/${enc(name)}`,
        [201],
        body,
      );
      ctx.io.out(`Node management status for ${name} is reset.\n`);
      found = true;
    }
    if (found)
      ctx.io.out(
        `The the Horizon agent for node ${nodeOrg}/${id} will re-evaluate the management policies.\n`,
      );
    else if (wanted)
      throw fatal(
        EXIT.NOT_FOUND,
        `Node ${id} does not contain a status for ${str(opts.policy)} in org ${nodeOrg}`,
      );
  });
}

/** The node must exist (404: exit 8); its statuses, or undefined (or exit 8 when `required`) on 404. */
async function nodeStatuses(
  client: ExchangeClient,
  nodeOrg: string,
  id: string,
  required: boolean,
): Promise<Record<string, Json> | undefined> {
  if (Object.keys(await orgNodes(client, nodeOrg, id)).length === 0)
    throw fatal(EXIT.NOT_FOUND, `node '${nodeOrg}/${id}' not found.`);
  const path = `orgs/${enc(nodeOrg)}/nodes/${enc(id)}/managementStatus`;
  const answer = await client.expect('GET', path, [200, 404]);
  if (answer.status === 404) {
    if (required) throw fatal(EXIT.NOT_FOUND, `Statuses for node ${id} not found in org ${nodeOrg}`);
    return undefined;
  }
  return (
    jsonBody<{ managementStatus?: Record<string, Json> }>(answer, client.url(path)).managementStatus ?? {}
  );
}

/** Upstream's CLI pattern rule: the same `org/name`, either side's org defaulting to the node's. */
function patternCompatible(nodeOrg: string, nodePattern: string, patterns: string[]): boolean {
  const mine = splitOrg(nodeOrg, nodePattern);
  return patterns.some((p) => {
    if (p === nodePattern) return true;
    const theirs = splitOrg(nodeOrg, p);
    return theirs.org === mine.org && theirs.id === mine.id;
  });
}
