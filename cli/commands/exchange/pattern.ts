import { existsSync } from 'node:fs';
import { basename, extname } from 'node:path';
import type { Command } from 'commander';
import { deploymentString, signDeployment } from '#lib/protocol/deployment-signature';
import { act, type Base, group, leaf, str } from '../../command-kit.ts';
import { EXIT, fatal, usage } from '../../errors.ts';
import { enc, jsonBody, splitOrg } from '../../exchange-client.ts';
import { readJsonFile, requireObject } from '../../input-file.ts';
import { printJson, sortedMap } from '../../output.ts';
import { confirmOrExit } from '../../prompt.ts';
import { type SigningKeys, signingKeys } from '../../signing-keys.ts';
import { exchangeSession } from './session.ts';

type Json = Record<string, unknown>;
const VIEW_FIELDS = [
  'owner',
  'label',
  'description',
  'public',
  'services',
  'clusterNamespace',
  'agreementProtocols',
  'userInput',
  'secretBinding',
  'lastUpdated',
];
const OPTIONAL = new Set(['owner', 'clusterNamespace', 'userInput', 'secretBinding', 'lastUpdated']);

/** `hzn exchange pattern list|publish|remove` over /orgs/{org}/patterns (docs/hzn-behaviour.md#hzn-exchange-pattern-publish, #exchange-commands). */
export function patternCommands(exchange: Command, base: Base): void {
  const pattern = group(exchange, ['pattern', 'pat'], 'List and manage patterns in the Horizon Exchange.');

  const list = leaf(pattern, ['list', 'ls'], 'Display the pattern resources from the Horizon Exchange.')
    .argument('[pattern]', 'List just this one pattern.')
    .option('-l, --long', 'Display the entire content of each pattern resource.')
    .option(
      '-n, --node-id-tok <id:tok>',
      'The Horizon Exchange node ID and token to be used as credentials.',
    );
  act(base, list, async (ctx, [name], opts) => {
    const { client, org } = await exchangeSession(ctx, opts, 'any');
    const target = name ? splitOrg(org, name) : { org, id: '' };
    const path = `orgs/${enc(target.org)}/patterns${name ? `/${enc(target.id)}` : ''}`;
    const result = await client.expect('GET', path, [200, 404]);
    if (result.status === 404 && name)
      throw fatal(EXIT.NOT_FOUND, `pattern '${target.id}' not found in org ${target.org}`);
    const patterns = (
      result.status === 404 ? {} : (jsonBody<{ patterns?: Json }>(result, client.url(path)).patterns ?? {})
    ) as Record<string, Json>;
    if (!name && opts.long !== true) {
      printJson(ctx.io, Object.keys(patterns));
      return;
    }
    const view = (p: Json) =>
      Object.fromEntries(
        VIEW_FIELDS.filter((k) => p[k] !== undefined || !OPTIONAL.has(k)).map((k) => [k, p[k] ?? null]),
      );
    printJson(ctx.io, sortedMap(Object.entries(patterns).map(([k, v]) => [k, view(v)] as [string, Json])));
  });

  const remove = leaf(pattern, ['remove', 'rm'], 'Remove a pattern resource from the Horizon Exchange.')
    .argument('<pattern>', 'The pattern to remove.')
    .option('-f, --force', 'Skip the are you sure prompt.');
  act(base, remove, async (ctx, [name], opts) => {
    const { client, org } = await exchangeSession(ctx, opts, 'user');
    const target = splitOrg(org, name as string);
    await confirmOrExit(
      ctx,
      `Are you sure you want to remove pattern ${target.org}/${target.id} from the Horizon Exchange?`,
      opts.force === true,
    );
    const result = await client.expect(
      'DELETE',
      `orgs/${enc(target.org)}/patterns/${enc(target.id)}`,
      [204, 404],
    );
    if (result.status === 404)
      throw fatal(EXIT.NOT_FOUND, `pattern '${target.id}' not found in org ${target.org}`);
  });

  const publish = leaf(
    pattern,
    ['publish', 'pub'],
    'Sign and create/update the pattern resource in the Horizon Exchange.',
  )
    .requiredOption(
      '-f, --json-file <file>',
      'The path of a JSON file containing the metadata necessary to create/update the pattern. Specify -f- to read from stdin.',
    )
    .option(
      '-k, --private-key-file <file>',
      'The path of a private key file to be used to sign the deployment overrides.',
    )
    .option(
      '-K, --public-key-file <file>',
      'The path of public key file (that corresponds to the private key) that should be stored with the pattern.',
    )
    .option('-p, --pattern-name <name>', 'The name to use for this pattern in the Horizon exchange.');
  act(base, publish, async (ctx, _args, opts) => {
    for (const flag of ['privateKeyFile', 'publicKeyFile'] as const) {
      const path = str(opts[flag]);
      if (path && !existsSync(path)) throw usage(`path '${path}' does not exist`);
    }
    const file = str(opts.jsonFile) as string;
    const def = requireObject(await readJsonFile(ctx, file), file);
    if (!Array.isArray(def.services) || def.services.length === 0)
      throw fatal(
        EXIT.CLI_INPUT_ERROR,
        'Error validating the input pattern: the pattern must have at least one service.',
      );
    const { client, org } = await exchangeSession(ctx, opts, 'user');
    if (typeof def.org === 'string' && def.org !== '' && def.org !== org)
      throw fatal(
        EXIT.CLI_INPUT_ERROR,
        `the org specified in the input file (${def.org}) must match the org specified on the command line (${org})`,
      );
    const rawName =
      str(opts.patternName) ||
      (typeof def.name === 'string' && def.name) ||
      (file === '-' ? '' : basename(file, extname(file)));
    if (!rawName) throw fatal(EXIT.CLI_INPUT_ERROR, 'the pattern name must be given with -p or in the file');
    const name = rawName.replace(/[$!*,;/?@&~=%]/g, '-');
    let keys: SigningKeys | undefined;
    const services = (def.services as Json[]).map((s) => ({
      ...s,
      serviceVersions: ((s.serviceVersions as Json[] | undefined) ?? []).map((v) => {
        const overrides = v.deployment_overrides;
        if (!overrides || typeof overrides !== 'object' || Object.keys(overrides).length === 0) return v;
        keys ??= signingKeys(ctx, str(opts.privateKeyFile), str(opts.publicKeyFile));
        const text = deploymentString(overrides);
        return {
          ...v,
          deployment_overrides: text,
          deployment_overrides_signature: signDeployment(text, keys.privateKey),
        };
      }),
    }));
    const body: Json = {
      label: def.label ?? '',
      description: def.description ?? '',
      public: def.public === true,
      services,
      agreementProtocols: def.agreementProtocols ?? [{ name: 'Basic' }],
      ...(def.clusterNamespace !== undefined ? { clusterNamespace: def.clusterNamespace } : {}),
      ...(def.userInput !== undefined ? { userInput: def.userInput } : {}),
      ...(def.secretBinding !== undefined ? { secretBinding: def.secretBinding } : {}),
    };
    const path = `orgs/${enc(org)}/patterns/${enc(name)}`;
    const existing = await client.expect('GET', path, [200, 404]);
    if (existing.status === 200) {
      ctx.io.out(`Updating ${name} in the Exchange...\n`);
      await client.expect('PUT', path, [200, 201], body);
    } else {
      ctx.io.out(`Creating ${name} in the Exchange...\n`);
      await client.expect('POST', path, [201], body);
    }
    if (keys) {
      ctx.io.out(`Storing ${keys.publicKeyName} with the pattern in the Exchange...\n`);
      const stored = await client.call('PUT', `${path}/keys/${enc(keys.publicKeyName)}`, keys.publicKeyPem);
      if (stored.status === 404)
        ctx.io.err('Warning: this Exchange does not store keys with patterns; the key was not stored.\n');
      else if (stored.status !== 201)
        throw fatal(
          EXIT.HTTP_ERROR,
          `bad HTTP code ${stored.status} from PUT ${client.url(`${path}/keys/${keys.publicKeyName}`)}: ${stored.text}`,
        );
    }
  });
}
