import type { Command } from 'commander';
import { act, type Base, collect, group, leaf } from '../../command-kit.ts';
import { EXIT, fatal } from '../../errors.ts';
import { enc, jsonBody, splitOrg } from '../../exchange-client.ts';
import { printJson, sortedMap } from '../../output.ts';
import { confirmOrExit } from '../../prompt.ts';
import { publishService } from './service-publish.ts';
import { exchangeSession } from './session.ts';

type Json = Record<string, unknown>;

const SERVICE_FIELDS = [
  'owner',
  'label',
  'description',
  'documentation',
  'public',
  'url',
  'version',
  'arch',
  'sharable',
  'matchHardware',
  'requiredServices',
  'userInput',
  'deployment',
  'deploymentSignature',
  'clusterDeployment',
  'clusterDeploymentSignature',
  'lastUpdated',
];

/** `hzn exchange service publish|list|remove` (docs/hzn-behaviour.md#hzn-exchange-service-publish, #exchange-commands). */
export function exchangeServiceCommands(exchange: Command, base: Base): void {
  const service = group(exchange, ['service', 'serv'], 'List and manage services in the Horizon Exchange.');

  const list = leaf(service, ['list', 'ls'], 'Display the service resources from the Horizon Exchange.')
    .argument('[service]', 'List just this one service.')
    .option('-l, --long', 'Display the entire content of each service resource.')
    .option(
      '-n, --node-id-tok <id:tok>',
      'The Horizon Exchange node ID and token to be used as credentials.',
    );
  act(base, list, async (ctx, [name], opts) => {
    const { client, org } = await exchangeSession(ctx, opts, 'any');
    const target = name ? splitOrg(org, name) : { org, id: '' };
    const path = `orgs/${enc(target.org)}/services${name ? `/${enc(target.id)}` : ''}`;
    const result = await client.expect('GET', path, [200, 404]);
    if (result.status === 404 && name)
      throw fatal(EXIT.NOT_FOUND, `service '${target.id}' not found in org ${target.org}`);
    const services = (
      result.status === 404 ? {} : (jsonBody<{ services?: Json }>(result, client.url(path)).services ?? {})
    ) as Record<string, Json>;
    if (!name && opts.long !== true) {
      printJson(ctx.io, Object.keys(services));
      return;
    }
    const one = Object.keys(services).length === 1 && opts.long === true;
    printJson(
      ctx.io,
      sortedMap(Object.entries(services).map(([k, v]) => [k, serviceView(v, one)] as [string, Json])),
    );
  });

  const remove = leaf(service, ['remove', 'rm'], 'Remove a service resource from the Horizon Exchange.')
    .argument('<service>', 'The service to remove.')
    .option('-f, --force', 'Skip the are you sure prompt.');
  act(base, remove, async (ctx, [name], opts) => {
    const { client, org } = await exchangeSession(ctx, opts, 'user');
    const target = splitOrg(org, name as string);
    await confirmOrExit(
      ctx,
      `Are you sure you want to remove service ${target.org}/${target.id} from the Horizon Exchange?`,
      opts.force === true,
    );
    const result = await client.expect(
      'DELETE',
      `orgs/${enc(target.org)}/services/${enc(target.id)}`,
      [204, 404],
    );
    if (result.status === 404)
      throw fatal(EXIT.NOT_FOUND, `service '${target.id}' not found in org ${target.org}`);
  });

  const publish = leaf(
    service,
    ['publish', 'pub'],
    'Sign and create/update the service resource in the Horizon Exchange.',
  )
    .requiredOption(
      '-f, --json-file <file>',
      'The path of a JSON file containing the metadata necessary to create/update the service in the Horizon exchange. Specify -f- to read from stdin.',
    )
    .option('-k, --private-key-file <file>', 'The path of a private key file to be used to sign the service.')
    .option(
      '-K, --public-key-file <file>',
      '(DEPRECATED) The path of public key file (that corresponds to the private key) that should be stored with the service.',
    )
    .option(
      '-I, --dont-change-image-tag',
      'The image paths in the deployment field have regular tags and should not be changed to sha256 digest values.',
    )
    .option(
      '-P, --pull-image',
      'Use the image from the image repository (not supported here: no registry access).',
    )
    .option(
      '-r, --registry-token <registry:user:token>',
      'Docker registry domain and auth that should be stored with the service.',
      collect,
    )
    .option('-O, --overwrite', 'Overwrite the existing version if the service exists in the Exchange.')
    .option(
      '-p, --service-policy-file <file>',
      'The path of the service policy JSON file to be used for the service to be published.',
    )
    .option(
      '--public <bool>',
      'Whether the service is visible to users outside of the organization (true or false).',
    );
  act(base, publish, async (ctx, _args, opts) => publishService(ctx, opts));
}

/** A service record in upstream's field order; a long clusterDeployment is cut unless one service is listed with -l. */
function serviceView(s: Json, full: boolean): Json {
  const view: Json = {};
  for (const key of SERVICE_FIELDS)
    if (s[key] !== undefined || !['owner', 'lastUpdated'].includes(key)) view[key] = s[key] ?? null;
  const cluster = view.clusterDeployment;
  if (!full && typeof cluster === 'string' && cluster.length > 100)
    view.clusterDeployment = `${cluster.slice(0, 100)}...`;
  return view;
}
