import type { Command } from 'commander';
import { act, type Base, group, leaf } from '../../command-kit.ts';
import { EXIT, fatal } from '../../errors.ts';
import { enc, jsonBody, splitOrg } from '../../exchange-client.ts';
import { printJson, sortedDeep } from '../../output.ts';
import { exchangeSession } from './session.ts';

type Json = Record<string, unknown>;

/**
 * `hzn exchange agbot list|adddeploymentpol|listdeploymentpol|addpattern|listpattern`
 * (docs/hzn-behaviour.md#exchange-commands). Upstream's `/businesspols` and `/patterns` are served here at
 * `/deployment/policies` and `/deployment/patterns`.
 */
export function agbotCommands(exchange: Command, base: Base): void {
  const agbot = group(exchange, ['agbot'], 'List and manage agbots in the Horizon Exchange.');
  const agbotPath = (org: string, name: string) => {
    const t = splitOrg(org, name);
    return { ...t, path: `orgs/${enc(t.org)}/agbots/${enc(t.id)}` };
  };

  const list = leaf(agbot, ['list', 'ls'], 'Display the agbot resources from the Horizon Exchange.')
    .argument('[agbot]', 'List just this one agbot.')
    .option('-l, --long', 'When listing all of the agbots, show the entire resource of each agbots.');
  act(base, list, async (ctx, [name], opts) => {
    const { client, org } = await exchangeSession(ctx, opts, 'user');
    const target = name ? agbotPath(org, name) : { org, id: '', path: `orgs/${enc(org)}/agbots` };
    const result = await client.expect('GET', target.path, [200, 404]);
    if (result.status === 404 && name)
      throw fatal(EXIT.NOT_FOUND, `agbot '${target.id}' not found in org ${target.org}`);
    const agbots = (
      result.status === 404 ? {} : (jsonBody<{ agbots?: Json }>(result, client.url(target.path)).agbots ?? {})
    ) as Json;
    if (!name && opts.long !== true) printJson(ctx.io, Object.keys(agbots));
    else printJson(ctx.io, sortedDeep(agbots));
  });

  const addPol = leaf(
    agbot,
    ['adddeploymentpol', 'addpo', 'addbusinesspol'],
    "Add the deployment policies of an organization to the agbot's list.",
  )
    .argument('<agbot>', 'The agbot to add the deployment policy org to.')
    .argument('<policyorg>', 'The organization of the deployment policies to add.');
  act(base, addPol, async (ctx, [name, policyOrg], opts) => {
    const { client, org } = await exchangeSession(ctx, opts, 'user');
    const target = agbotPath(org, name as string);
    const body = { businessPolOrgid: policyOrg, businessPol: '*', nodeOrgid: policyOrg };
    const result = await client.expect('POST', `${target.path}/deployment/policies`, [201, 409], body);
    if (result.status === 409)
      throw fatal(
        EXIT.CLI_INPUT_ERROR,
        `Deployment policy org '${policyOrg}' already exists in agbot '${target.id}'`,
      );
    ctx.io.out(
      `Adding Business policy org ${policyOrg}' to agbot '${target.id}'. The agbot will start looking for nodes that are compatible with this policy.\n`,
    );
  });

  const listPol = leaf(
    agbot,
    ['listdeploymentpol', 'lspo', 'listbusinesspol'],
    'Display the deployment policies that this agbot is serving.',
  ).argument('<agbot>', 'The agbot.');
  act(base, listPol, async (ctx, [name], opts) => {
    const { client, org } = await exchangeSession(ctx, opts, 'user');
    const target = agbotPath(org, name as string);
    const path = `${target.path}/deployment/policies`;
    const result = await client.expect('GET', path, [200, 404]);
    const pols =
      result.status === 404
        ? {}
        : (jsonBody<{ businessPols?: Record<string, Json> }>(result, client.url(path)).businessPols ?? {});
    // Upstream's keys are `<org>_*_<nodeorg>`.
    const view = Object.fromEntries(
      Object.values(pols).map((p) => [`${p.businessPolOrgid}_${p.businessPol}_${p.nodeOrgid}`, p]),
    );
    printJson(ctx.io, sortedDeep(view));
  });

  const addPattern = leaf(
    agbot,
    ['addpattern', 'addpa'],
    'Add this pattern to the list of patterns this agbot is serving.',
  )
    .argument('<agbot>', 'The agbot to add the pattern to.')
    .argument('<patternorg>', 'The organization of the pattern to add.')
    .argument('<pattern>', 'The name of the pattern to add.')
    .argument('[nodeorg]', 'The organization of the nodes that should be searched. Defaults to patternorg.');
  act(base, addPattern, async (ctx, [name, patternOrg, pattern, nodeOrg], opts) => {
    const { client, org } = await exchangeSession(ctx, opts, 'user');
    const target = agbotPath(org, name as string);
    const body = { patternOrgid: patternOrg, pattern, nodeOrgid: nodeOrg ?? patternOrg };
    const result = await client.expect('POST', `${target.path}/deployment/patterns`, [201, 409], body);
    if (result.status === 409)
      throw fatal(
        EXIT.CLI_INPUT_ERROR,
        `Pattern '${pattern}' with org '${patternOrg}' and node org '${body.nodeOrgid}' already exists in agbot '${target.id}'`,
      );
  });

  const listPattern = leaf(agbot, ['listpattern', 'lspa'], 'Display the patterns that this agbot is serving.')
    .argument('<agbot>', 'The agbot.')
    .argument('[patternorg]', 'The organization of the 1 pattern to list.')
    .argument('[pattern]', 'The name of the 1 pattern to list.')
    .argument('[nodeorg]', 'The organization of the nodes that should be searched. Defaults to patternorg.');
  act(base, listPattern, async (ctx, [name, patternOrg, pattern], opts) => {
    const { client, org } = await exchangeSession(ctx, opts, 'user');
    const target = agbotPath(org, name as string);
    // This Exchange keys a served pattern by `<patternorg>_<pattern>`, so nodeorg does not narrow it
    // (docs/compatibility.md#agbot-served-patterns-and-policies).
    const one = patternOrg && pattern ? `/${enc(`${patternOrg}_${pattern}`)}` : '';
    const path = `${target.path}/deployment/patterns${one}`;
    const result = await client.expect('GET', path, [200, 404]);
    printJson(
      ctx.io,
      sortedDeep(
        result.status === 404 ? {} : (jsonBody<{ patterns?: Json }>(result, client.url(path)).patterns ?? {}),
      ),
    );
  });
}
