import type { Command } from 'commander';
import { act, type Base, leaf, str } from '../../command-kit.ts';
import { EXIT, fatal } from '../../errors.ts';
import { enc, jsonBody, splitOrg } from '../../exchange-client.ts';
import { printJson, sortedMap } from '../../output.ts';
import { getNmps, inBatches, nmpPath, orgNodes } from './nmp-exchange.ts';
import { goStatus, statusOf } from './nmp-view.ts';
import { exchangeSession } from './session.ts';

type Json = Record<string, unknown>;

/**
 * `hzn exchange nmp status <nmp> [-N node] [-l]`: checks the NMP exists, then one GET of each
 * node's status for it, 50 nodes at a time. `{"org/node": "status"}`, or with `-l` the status
 * objects `{"org/node": {"org/nmp": …}}`; nodes without one are left out.
 */
export function nmpStatusCommand(nmp: Command, base: Base, idTok: (cmd: Command) => Command): void {
  const status = idTok(
    leaf(nmp, ['status'], 'List the status of a given node management policy across all nodes in given org.')
      .argument('<nmp-name>', 'The name of the node management policy status to check.')
      .option('-N, --node <node>', 'Filter output to include just this one node.')
      .option('-l, --long', 'Show the entire contents of each node management policy status object.'),
  );
  act(base, status, async (ctx, [given], opts) => {
    const { client, org } = await exchangeSession(ctx, opts, 'any');
    const target = nmpPath(org, given === '*' ? '' : (given as string));
    if ((await getNmps(client, target.path)) === undefined)
      throw fatal(EXIT.NOT_FOUND, `NMP ${target.id} not found in org ${target.org}`);
    const node = str(opts.node) ?? '';
    const nodes = Object.keys(await orgNodes(client, target.org, node));
    if (node && nodes.length === 0)
      throw fatal(EXIT.NOT_FOUND, `Node ${node} not found in org ${target.org}`);
    const found = await inBatches(nodes, async (key) => {
      const path = `orgs/${enc(target.org)}/nodes/${enc(splitOrg(org, key).id)}/managementStatus${target.id ? `/${enc(target.id)}` : ''}`;
      const answer = await client.expect('GET', path, [200, 404]);
      if (answer.status === 404) return undefined;
      const statuses =
        jsonBody<{ managementStatus?: Record<string, Json> }>(answer, client.url(path)).managementStatus ??
        {};
      const entries = Object.entries(statuses);
      return entries.length > 0 ? ([key, entries] as const) : undefined;
    });
    const present = found.filter((f) => f !== undefined);
    if (present.length === 0)
      throw fatal(
        EXIT.NOT_FOUND,
        node
          ? `Status for NMP ${target.id} not found for node ${node} in org ${target.org}`
          : `Status for NMP ${target.id} not found in org ${target.org}`,
      );
    if (opts.long === true) {
      const objects = present.map(
        ([key, entries]) =>
          [key, sortedMap(entries.map(([k, s]) => [k, goStatus(s)] as [string, Json]))] as [string, Json],
      );
      printJson(ctx.io, sortedMap(objects));
    } else {
      // Upstream keeps the last status it read for each node.
      printJson(
        ctx.io,
        sortedMap(present.map(([key, entries]) => [key, statusOf(entries.at(-1)?.[1])] as [string, string])),
      );
    }
  });
}
