import { existsSync } from 'node:fs';
import { serviceId } from '#lib/catalog/service-id';
import { deploymentString, signDeployment } from '#lib/protocol/deployment-signature';
import { type Options, str } from '../../command-kit.ts';
import type { Ctx } from '../../context.ts';
import { EXIT, fatal, usage } from '../../errors.ts';
import { enc } from '../../exchange-client.ts';
import { readJsonFile, requireObject } from '../../input-file.ts';
import { confirmOrExit } from '../../prompt.ts';
import { signingKeys } from '../../signing-keys.ts';
import { exchangeSession } from './session.ts';

type Json = Record<string, unknown>;

/**
 * `hzn exchange service publish` (docs/hzn-behaviour.md#hzn-exchange-service-publish): the deployment object becomes Go's canonical
 * string, signed RSA-PSS/SHA-256 with the -k key; POST when new, PUT (after the prompt or -O) when it
 * exists; then the public key, the registry tokens and the service policy. Images are not pushed.
 */
export async function publishService(ctx: Ctx, opts: Options): Promise<void> {
  for (const flag of ['privateKeyFile', 'publicKeyFile', 'servicePolicyFile'] as const) {
    const path = str(opts[flag]);
    if (path && !existsSync(path)) throw usage(`path '${path}' does not exist`);
  }
  if (opts.dontChangeImageTag === true && opts.pullImage === true)
    throw fatal(EXIT.CLI_INPUT_ERROR, '-I and -P are mutually exclusive.');
  const file = str(opts.jsonFile) as string;
  const def = requireObject(await readJsonFile(ctx, file), file);
  const servicePolicy = str(opts.servicePolicyFile)
    ? requireObject(
        await readJsonFile(ctx, str(opts.servicePolicyFile) as string),
        str(opts.servicePolicyFile) as string,
      )
    : undefined;
  const { client, org } = await exchangeSession(ctx, opts, 'user');
  if (typeof def.org === 'string' && def.org !== '' && def.org !== org)
    throw fatal(
      EXIT.CLI_INPUT_ERROR,
      `the org specified in the input file (${def.org}) must match the org specified on the command line (${org})`,
    );
  for (const key of ['url', 'version', 'arch'] as const)
    if (typeof def[key] !== 'string' || def[key] === '')
      throw fatal(
        EXIT.CLI_INPUT_ERROR,
        `Error validating the input service: ${key} must be specified in ${file}`,
      );
  if (opts.public !== undefined) {
    if (opts.public !== 'true' && opts.public !== 'false')
      throw fatal(EXIT.CLI_INPUT_ERROR, `--public must be true or false, not ${String(opts.public)}`);
    def.public = opts.public === 'true';
  }
  const body = serviceBody(def);
  const images: string[] = [];
  let signedWith: ReturnType<typeof signingKeys> | undefined;
  for (const [field, sigField] of [
    ['deployment', 'deploymentSignature'],
    ['clusterDeployment', 'clusterDeploymentSignature'],
  ] as const) {
    const value = def[field];
    if (value === null || value === undefined || value === '') {
      body[field] = '';
      if (def[sigField]) ctx.io.err(`Warning: the ${sigField} is ignored because ${field} is empty.\n`);
      body[sigField] = '';
    } else if (typeof value === 'string') {
      if (typeof def[sigField] !== 'string' || def[sigField] === '')
        throw fatal(EXIT.JSON_PARSING_ERROR, `the ${field} is a string but ${sigField} is empty in ${file}`);
      body[field] = value;
      body[sigField] = def[sigField];
    } else {
      if (field === 'deployment') images.push(...checkDeployment(ctx, value));
      signedWith ??= signingKeys(ctx, str(opts.privateKeyFile), str(opts.publicKeyFile));
      ctx.io.out(`Signing service...\n`);
      body[field] = deploymentString(value);
      body[sigField] = signDeployment(body[field] as string, signedWith.privateKey);
    }
  }
  if (images.length > 0 && opts.dontChangeImageTag !== true)
    ctx.io.out(
      `Note: this hzn does not push or pull images (no container registry access): the image tags in 'deployment' are kept, as with -I.\n`,
    );

  const id = serviceId(def.url as string, def.version as string, def.arch as string);
  const servicePath = `orgs/${enc(org)}/services/${enc(id)}`;
  const existing = await client.expect('GET', servicePath, [200, 404]);
  if (existing.status === 200) {
    await confirmOrExit(
      ctx,
      `Service ${org}/${id} exists in the Exchange, do you want to overwrite it?`,
      opts.overwrite === true,
    );
    ctx.io.out(`Updating ${id} in the Exchange...\n`);
    await client.expect('PUT', servicePath, [201], body);
  } else {
    ctx.io.out(`Creating ${id} in the Exchange...\n`);
    await client.expect('POST', `orgs/${enc(org)}/services`, [201], body);
  }
  if (signedWith) {
    ctx.io.out(`Storing ${signedWith.publicKeyName} with the service in the Exchange...\n`);
    await client.expect(
      'PUT',
      `${servicePath}/keys/${enc(signedWith.publicKeyName)}`,
      [201],
      signedWith.publicKeyPem,
    );
  }
  for (const token of (opts.registryToken as string[] | undefined) ?? []) {
    const parts = token.split(':');
    if (parts.length < 3 || parts.some((p) => p === '')) {
      ctx.io.out(
        `Error: registry-token value of '${token}' is not in the required format: registry:user:token. Not storing that in the Horizon exchange.\n`,
      );
      continue;
    }
    const [registry, username, ...rest] = parts;
    await client.expect('POST', `${servicePath}/dockauths`, [201], {
      registry,
      username,
      token: rest.join(':'),
    });
  }
  if (opts.pullImage === true)
    ctx.io.out('Note: -P (pull the image) is skipped: this hzn has no container registry access.\n');
  if (images.length > 0) {
    ctx.io.out("If you haven't already, push your docker images to the registry:\n");
    for (const image of images) ctx.io.out(`  docker push ${image}\n`);
  }
  if (servicePolicy) {
    ctx.io.out(`Adding service policy for service: ${org}/${id}\n`);
    await client.expect('PUT', `${servicePath}/policy`, [201], servicePolicyBody(servicePolicy, def, org));
    ctx.io.out(`Service policy added for service: ${org}/${id}\n`);
  }
}

/** The body of POST/PUT: upstream's fields only, absent lists/objects as null and strings as "". */
function serviceBody(def: Json): Json {
  const text = (key: string) => (typeof def[key] === 'string' ? def[key] : '');
  const required = Array.isArray(def.requiredServices)
    ? (def.requiredServices as Json[]).map((r) => ({
        url: r.url,
        org: r.org,
        ...(r.version !== undefined ? { version: r.version } : {}),
        versionRange: r.versionRange ?? r.version,
        arch: r.arch,
      }))
    : null;
  return {
    label: text('label'),
    description: text('description'),
    documentation: text('documentation'),
    public: def.public === true,
    url: def.url,
    version: def.version,
    arch: def.arch,
    sharable: text('sharable'),
    matchHardware: def.matchHardware ?? null,
    requiredServices: required,
    userInput: def.userInput ?? null,
    deployment: '',
    deploymentSignature: '',
    clusterDeployment: '',
    clusterDeploymentSignature: '',
  };
}

const DEPLOYMENT_KEYS = new Set([
  'image',
  'privileged',
  'cap_add',
  'environment',
  'devices',
  'binds',
  'specific_ports',
  'command',
  'ports',
  'ephemeral_ports',
  'tmpfs',
  'network',
  'entrypoint',
  'max_memory_mb',
  'max_cpus',
  'log_driver',
  'secrets',
  'pid',
  'user',
  'sysctls',
  'ipc',
]);

/** The native deployment check: `services` of objects with an `image`; unknown keys only warn. Returns the images. */
function checkDeployment(ctx: Ctx, deployment: unknown): string[] {
  const services = (deployment as Json | null)?.services;
  if (!services || typeof services !== 'object' || Array.isArray(services))
    throw fatal(
      EXIT.CLI_INPUT_ERROR,
      "Error validating the input service: the deployment field must be an object with a 'services' object",
    );
  const images: string[] = [];
  for (const [name, entry] of Object.entries(services as Json)) {
    if (!entry || typeof entry !== 'object' || typeof (entry as Json).image !== 'string')
      throw fatal(
        EXIT.CLI_INPUT_ERROR,
        `Error validating the input service: deployment service ${name} must be an object with an 'image' string`,
      );
    for (const key of Object.keys(entry))
      if (!DEPLOYMENT_KEYS.has(key))
        ctx.io.err(`Warning: unknown field '${key}' in deployment service ${name}.\n`);
    images.push((entry as Json).image as string);
  }
  return images;
}

/** The service policy with upstream's built-ins (service.url, name, org, version, arch) forced. */
function servicePolicyBody(policy: Json, def: Json, org: string): Json {
  const builtins = [
    { name: 'service.url', value: def.url },
    { name: 'service.name', value: def.url },
    { name: 'service.org', value: org },
    { name: 'service.version', value: def.version },
    { name: 'service.arch', value: def.arch },
  ];
  const own = Array.isArray(policy.properties)
    ? (policy.properties as Json[]).filter((p) => !builtins.some((b) => b.name === p.name))
    : [];
  return {
    label: policy.label ?? '',
    description: policy.description ?? '',
    properties: [...own, ...builtins],
    constraints: policy.constraints ?? [],
  };
}
