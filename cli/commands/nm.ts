import type { Command } from 'commander';
import { isValidVersion, isValidVersionRange } from '#lib/catalog/version-range';
import { MANIFEST_TYPE, STANZAS, signManifest, upgradeManifest } from '#lib/nmp/manifest';
import { act, type Base, group, leaf, str } from '../command-kit.ts';
import { EXIT, fatal } from '../errors.ts';
import { enc, jsonBody, splitOrg } from '../exchange-client.ts';
import { readJsonFile } from '../input-file.ts';
import { printJson } from '../output.ts';
import { confirmOrExit } from '../prompt.ts';
import { signingKeys } from '../signing-keys.ts';
import { agentFiles, agentFilesCommands } from './nm-agentfiles.ts';
import { mmsSession } from './nm-session.ts';

type Json = Record<string, unknown>;

const TEMPLATE = [
  '{',
  '  "softwareUpgrade": {       /* Fill in this section to perform a software upgrade of the agent. Remove this section to prevent software upgrade. */',
  '    "files": [               /* A list of agent software files stored in the Management Hub. */',
  '      ""                     /* Run \'hzn nm agentfiles list -t agent_software_files\' to get a list of available files. */',
  '    ],',
  '    "version": ""            /* The agent software version this manifest applies to. Specify "latest" to get the most recent version. */',
  '  },',
  '  "certificateUpgrade": {    /* Fill in this section to upgrade the agent certificate. Remove this section to prevent certificate upgrade. */',
  '    "files": [               /* The name of a certificate file stored in the Management Hub. Default is "agent-install.crt". */',
  '      "agent-install.crt"    /* Run \'hzn nm agentfiles list -t agent_cert_files\' to get a list of available files. */',
  '    ],',
  '    "version": ""            /* The agent certificate version this manifest applies to. Specify "latest" to get the most recent version. */',
  '  },',
  '  "configurationUpgrade": {  /* Fill in this section to upgrade the agent config. Remove this section to prevent config upgrade. */',
  '    "files": [               /* The name of a config file stored in the Management Hub. Default is "agent-install.crt". */',
  '      "agent-install.cfg"    /* Run \'hzn nm agentfiles list -t agent_config_files\' to get a list of available files. */',
  '    ],',
  '    "version": ""            /* The agent config version this manifest applies to. Specify "latest" to get the most recent version. */',
  '  }',
  '}',
];

const checkType = (type: string | undefined) => {
  if (type && type !== MANIFEST_TYPE)
    throw fatal(
      EXIT.CLI_INPUT_ERROR,
      `Invalid manifest type specified. Valid types include: ${MANIFEST_TYPE}`,
    );
};

/**
 * `hzn nodemanagement|nm manifest new|add|list|remove` and `nm agentfiles` (docs/hzn.md#node-management-policies),
 * as upstream's open-horizon/anax `cli/node_management/manifest.go`, against the object store.
 */
export function nmCommands(program: Command, base: Base): void {
  const nm = group(
    program,
    ['nodemanagement', 'nm'],
    'List and manage manifests and agent files for node management.',
  )
    .option(
      '-o, --org <org>',
      'The Horizon organization ID. If not specified, HZN_ORG_ID will be used as a default.',
    )
    .option(
      '-u, --user-pw <USER:PW>',
      'Horizon user credentials. If not specified, HZN_EXCHANGE_USER_AUTH will be used as a default.',
    );
  const manifest = group(
    nm,
    ['manifest', 'man'],
    'List and manage manifest files stored in the management hub.',
  );

  act(
    base,
    leaf(manifest, ['new'], 'Display an empty manifest template that can be filled in.'),
    async (ctx) => {
      ctx.io.out(`${TEMPLATE.join('\n')}\n`);
    },
  );

  const list = leaf(
    manifest,
    ['list', 'ls'],
    'Display a list of manifest files stored in the management hub.',
  )
    .option(
      '-t, --type <type>',
      "The type of manifest to list. Valid values include 'agent_upgrade_manifests'.",
    )
    .option('-i, --id <id>', 'The id of the manifest to list. Must specify --type flag.')
    .option('-l, --long', 'Display the contents of the manifest file. Must specify --type and --id flags.');
  act(base, list, async (ctx, _args, opts) => {
    const type = str(opts.type) ?? '';
    checkType(type);
    const { client, org } = await mmsSession(ctx, opts);
    const { org: manOrg, id: given } = splitOrg(org, str(opts.id) ?? '');
    const id = given === '*' ? '' : given;
    if (id && !type) throw fatal(EXIT.CLI_INPUT_ERROR, 'must specify --type with --id');
    if (opts.long === true && (!id || !type))
      throw fatal(EXIT.CLI_INPUT_ERROR, 'must specify --type and --id with --long');
    const filters = `${type ? `&objectType=${enc(type)}` : ''}${id ? `&objectID=${enc(id)}` : ''}`;
    const path = `api/v1/objects/${enc(manOrg)}?filters=true&deleted=false${filters}`;
    const answer = await client.expect('GET', path, [200, 404]);
    const metas = answer.status === 404 ? [] : jsonBody<Json[]>(answer, client.url(path));
    if (metas.length === 0) return ctx.io.out('[]\n');
    if (opts.long !== true) {
      const manifests = metas
        .filter((m) => m.objectType === MANIFEST_TYPE)
        .map((m) => ({ manifestID: `${manOrg}/${m.objectID}`, manifestType: m.objectType }));
      return printJson(ctx.io, manifests);
    }
    const first = metas[0] as Json;
    const dataPath = `api/v1/objects/${enc(manOrg)}/${enc(String(first.objectType))}/${enc(String(first.objectID))}/data`;
    printJson(ctx.io, jsonBody(await client.expect('GET', dataPath, [200]), client.url(dataPath)));
  });

  const add = leaf(
    manifest,
    ['add'],
    "Add or replace a manifest file in the management hub. Use 'hzn nodemanagement manifest new' for an empty manifest template.",
  )
    .requiredOption(
      '-t, --type <type>',
      "The type of manifest to add. Valid values include 'agent_upgrade_manifests'.",
    )
    .requiredOption('-i, --id <id>', 'The id of the manifest to add.')
    .requiredOption(
      '-f, --json-file <file>',
      'The path of a JSON file containing the manifest data. Specify -f- to read from stdin.',
    )
    .option(
      '-a, --hashAlgo <algo>',
      'The hash algorithm of the signature: SHA256 (the default and only one this hub verifies).',
    )
    .option(
      '--hash <hash>',
      'A precomputed hash of the manifest data (not supported: the manifest is hashed here).',
    )
    .option(
      '-k, --private-key-file <file>',
      'The private key that signs the manifest (else HZN_PRIVATE_KEY_FILE, ~/.hzn/keys/service.private.key, or a generated one).',
    )
    .option('--noIntegrity', 'Do not sign the manifest.');
  act(base, add, async (ctx, _args, opts) => {
    const type = str(opts.type) as string;
    checkType(type);
    const skip = opts.noIntegrity === true;
    if (skip && str(opts.hash))
      throw fatal(EXIT.CLI_INPUT_ERROR, 'Cannot specify --skipDigitalSig with --hash');
    if (skip && str(opts.hashAlgo))
      throw fatal(EXIT.CLI_INPUT_ERROR, 'Cannot specify --skipDigitalSig with --hashAlgo');
    if (str(opts.hashAlgo) && str(opts.hashAlgo) !== 'SHA256')
      throw fatal(
        EXIT.CLI_INPUT_ERROR,
        'Invalid value for --hashAlgo: this hub signs and verifies SHA256 only',
      );
    if (str(opts.hash))
      throw fatal(EXIT.CLI_INPUT_ERROR, '--hash is not supported: the manifest is hashed by this command');
    const file = str(opts.jsonFile) as string;
    const parsed = upgradeManifest.safeParse(await readJsonFile(ctx, file));
    if (!parsed.success)
      throw fatal(
        EXIT.JSON_PARSING_ERROR,
        `failed to unmarshal ${file}: ${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`,
      );
    const { client, org } = await mmsSession(ctx, opts);
    const { org: manOrg, id } = splitOrg(org, str(opts.id) as string);
    const missing: string[] = [];
    for (const [stanza, kind] of STANZAS) {
      const part = parsed.data[stanza];
      if (!part?.files?.length) continue;
      const { version } = part;
      if (version !== 'latest' && !isValidVersion(version) && !isValidVersionRange(version))
        throw fatal(
          EXIT.CLI_INPUT_ERROR,
          `The version specified in ${stanza} is not a valid version string or "latest": ${version}`,
        );
      const present = new Set(
        (await agentFiles(client, kind, version === 'latest' ? '' : version)).map((f) => f.fileName),
      );
      for (const name of part.files)
        if (name !== '*' && !present.has(name))
          missing.push(`File "${name}" version "${version}" of type "${kind}".`);
    }
    if (missing.length > 0)
      throw fatal(
        EXIT.CLI_INPUT_ERROR,
        `The following files were specified in the manifest file but do not exist in the Management Hub:\n${missing.join('\n')}`,
      );
    const objectPath = `api/v1/objects/${enc(manOrg)}/${enc(type)}/${enc(id)}`;
    const exists = await client.expect(
      'GET',
      `api/v1/objects/${enc(manOrg)}?filters=true&deleted=false&objectType=${enc(type)}&objectID=${enc(id)}`,
      [200, 404],
    );
    const text = JSON.stringify(parsed.data);
    const meta: Json = {
      objectID: id,
      objectType: type,
      // An empty destination policy, as upstream's: the manifest is fetched, never broadcast.
      destinationPolicy: { properties: [], constraints: [], services: [], timestamp: 0 },
    };
    if (!skip) {
      ctx.io.out('Digital sign with SHA256 will be performed for data integrity.\n');
      const keys = signingKeys(ctx, str(opts.privateKeyFile), undefined);
      meta.hashAlgorithm = 'SHA256';
      meta.publicKey = Buffer.from(keys.publicKeyPem).toString('base64');
      meta.signature = signManifest(text, keys.privateKey);
      ctx.io.out('Digital sign finished.\n');
    }
    await client.expect('PUT', objectPath, [204], { meta, data: null });
    await client.expect('PUT', `${objectPath}/data`, [204], text);
    ctx.io.out(
      `Manifest ${manOrg}/${id} ${exists.status === 404 ? 'added to' : 'updated in'} the Management Hub\n`,
    );
  });

  const remove = leaf(manifest, ['remove', 'rm'], 'Remove a manifest file from the management hub.')
    .requiredOption(
      '-t, --type <type>',
      "The type of manifest to remove. Valid values include 'agent_upgrade_manifests'.",
    )
    .requiredOption('-i, --id <id>', 'The id of the manifest to remove.')
    .option('-f, --force', "Skip the 'are you sure?' prompt.");
  act(base, remove, async (ctx, _args, opts) => {
    const type = str(opts.type) as string;
    checkType(type);
    const { client, org } = await mmsSession(ctx, opts);
    const { org: manOrg, id } = splitOrg(org, str(opts.id) as string);
    await confirmOrExit(
      ctx,
      `Are you sure you want to remove manifest ${id} of type ${type} from org ${manOrg} from the Management Hub?`,
      opts.force === true,
    );
    const answer = await client.expect(
      'DELETE',
      `api/v1/objects/${enc(manOrg)}/${enc(type)}/${enc(id)}`,
      [204, 400, 404],
    );
    if (answer.status !== 204)
      throw fatal(
        EXIT.NOT_FOUND,
        `Manifest '${manOrg}/${id}' of type '${type}' not found in the Management Hub`,
      );
    ctx.io.out(`Manifest ${manOrg}/${id} deleted from the Management Hub\n`);
  });

  agentFilesCommands(nm, base);
}
