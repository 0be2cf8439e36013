import type { Command } from 'commander';
import { act, type Base, group, leaf, str } from '../../command-kit.ts';
import { EXIT, fatal } from '../../errors.ts';
import { type ExchangeClient, enc, jsonBody, splitOrg, unexpectedStatus } from '../../exchange-client.ts';
import type { HttpResult } from '../../http.ts';
import { readJsonFile, requireObject } from '../../input-file.ts';
import { printJson, sortedMap } from '../../output.ts';
import { confirmOrExit } from '../../prompt.ts';
import { deploymentPolicyBody, patchAttribute } from './policy-file.ts';
import { exchangeSession } from './session.ts';

type Json = Record<string, unknown>;
const VIEW_FIELDS = [
  'owner',
  'label',
  'description',
  'service',
  'properties',
  'constraints',
  'userInput',
  'secretBinding',
  'created',
  'lastUpdated',
];

/** `hzn exchange deployment addpolicy|listpolicy|updatepolicy|removepolicy` (docs/hzn-behaviour.md#exchange-commands). */
export function deploymentCommands(exchange: Command, base: Base): void {
  const deployment = group(
    exchange,
    ['deployment', 'dep', 'business'],
    'List and manage deployment policies in the Horizon Exchange.',
  );
  const credsOption = (cmd: Command) =>
    cmd.option(
      '-n, --id-token <id:tok>',
      'The Horizon Exchange node ID and token to be used as credentials.',
    );
  const policyPath = (org: string, name: string) => {
    const t = splitOrg(org, name);
    return { ...t, path: `orgs/${enc(t.org)}/business/policies/${enc(t.id)}` };
  };

  const list = credsOption(
    leaf(deployment, ['listpolicy', 'ls'], 'Display the deployment policies from the Horizon Exchange.')
      .argument('[policy]', 'List just this one policy.')
      .option('-l, --long', 'Display detailed info.'),
  );
  act(base, list, async (ctx, [name], opts) => {
    const { client, org } = await exchangeSession(ctx, opts, 'any');
    const target = name ? policyPath(org, name) : { org, id: '', path: `orgs/${enc(org)}/business/policies` };
    const result = await client.expect('GET', target.path, [200, 404]);
    if (result.status === 404 && name)
      throw fatal(EXIT.NOT_FOUND, `Policy ${target.id} not found in org ${target.org}`);
    const policies = (
      result.status === 404
        ? {}
        : (jsonBody<{ businessPolicy?: Json }>(result, client.url(target.path)).businessPolicy ?? {})
    ) as Record<string, Json>;
    if (!name && opts.long !== true) {
      printJson(ctx.io, Object.keys(policies));
      return;
    }
    const view = (p: Json) =>
      Object.fromEntries(VIEW_FIELDS.filter((k) => p[k] !== undefined).map((k) => [k, p[k]]));
    printJson(ctx.io, sortedMap(Object.entries(policies).map(([k, v]) => [k, view(v)] as [string, Json])), {
      escapeHtml: false,
      extraLine: true,
    });
  });

  const add = credsOption(
    leaf(deployment, ['addpolicy', 'addp'], 'Add or replace a deployment policy in the Horizon Exchange.')
      .argument('<policy>', 'The name of the policy to add or overwrite.')
      .requiredOption(
        '-f, --json-file <file>',
        'The path of a JSON file containing the metadata necessary to create/update the policy. Specify -f- to read from stdin.',
      )
      .option(
        '--no-constraints',
        'Allow this deployment policy to be published even though it does not have any constraints.',
      ),
  );
  act(base, add, async (ctx, [name], opts) => {
    const file = str(opts.jsonFile) as string;
    // commander's --no-constraints sets `constraints: false`.
    const body = deploymentPolicyBody(
      requireObject(await readJsonFile(ctx, file), file),
      opts.constraints === false,
    );
    const { client, org } = await exchangeSession(ctx, opts, 'any');
    const target = policyPath(org, name as string);
    const created = await client.call('POST', target.path, body);
    if (created.status === 201) {
      ctx.io.out(`Deployment policy: ${target.org}/${target.id} added in the Horizon Exchange\n`);
      return;
    }
    if (created.status !== 403) throw unexpected(client, 'POST', target.path, created);
    const updated = await client.call('PUT', target.path, body);
    if (updated.status === 404)
      throw fatal(
        EXIT.CLI_INPUT_ERROR,
        `Deployment policy ${target.org}/${target.id} not found in the Horizon Exchange (and it could not be created).`,
      );
    if (updated.status !== 201) throw unexpected(client, 'PUT', target.path, updated);
    ctx.io.out(`Deployment policy: ${target.org}/${target.id} updated in the Horizon Exchange\n`);
  });

  const update = credsOption(
    leaf(
      deployment,
      ['updatepolicy', 'upp'],
      'Update one attribute of an existing deployment policy in the Horizon Exchange.',
    )
      .argument('<policy>', 'The name of the policy to update.')
      .requiredOption(
        '-f, --json-file <file>',
        'The path of the JSON file containing the attribute to update. Specify -f- to read from stdin.',
      ),
  );
  act(base, update, async (ctx, [name], opts) => {
    const file = str(opts.jsonFile) as string;
    const patch = patchAttribute(requireObject(await readJsonFile(ctx, file), file));
    const { client, org } = await exchangeSession(ctx, opts, 'any');
    const target = policyPath(org, name as string);
    const existing = await client.expect('GET', target.path, [200, 404]);
    if (existing.status === 404) throw fatal(EXIT.NOT_FOUND, `Policy ${target.org}/${target.id} not found.`);
    ctx.io.out(
      `Updating Policy ${target.org}/${target.id} in the Horizon Exchange and re-evaluating all agreements based on this deployment policy. Existing agreements might be cancelled and re-negotiated.\n`,
    );
    await client.expect('PATCH', target.path, [200, 201], patch);
    ctx.io.out(`Policy ${target.org}/${target.id} updated in the Horizon Exchange\n`);
  });

  const remove = credsOption(
    leaf(deployment, ['removepolicy', 'rmp'], 'Remove the deployment policy from the Horizon Exchange.')
      .argument('<policy>', 'The name of the policy to remove.')
      .option('-f, --force', 'Skip the are you sure prompt.'),
  );
  act(base, remove, async (ctx, [name], opts) => {
    const { client, org } = await exchangeSession(ctx, opts, 'any');
    const target = policyPath(org, name as string);
    await confirmOrExit(
      ctx,
      `Are you sure you want to remove deployment policy ${target.id} for org ${target.org} from the Horizon Exchange?`,
      opts.force === true,
    );
    ctx.io.out(
      `Removing deployment policy ${target.org}/${target.id} and re-evaluating all agreements. Existing agreements might be cancelled and re-negotiated.\n`,
    );
    const result = await client.expect('DELETE', target.path, [204, 404]);
    if (result.status === 404)
      ctx.io.out(`Policy ${target.org}/${target.id} not found in the Horizon Exchange\n`);
    else ctx.io.out(`Deployment policy ${target.org}/${target.id} removed\n`);
  });
}

const unexpected = (client: ExchangeClient, method: string, path: string, result: HttpResult) =>
  unexpectedStatus(method, client.url(path), result);
