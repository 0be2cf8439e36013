import { type DependencyRecord, dependencyRecords } from '#lib/protocol/dependency-check';
import type { Ctx } from '../context.ts';
import { EXIT, fatal } from '../errors.ts';
import { type ExchangeClient, enc, jsonBody } from '../exchange-client.ts';
import { readJsonFile, requireObject } from '../input-file.ts';
import {
  type Json,
  type ServiceDefinition,
  serviceDefinitions,
  servicePolicyOf,
} from './deploycheck-inputs.ts';

/**
 * Where `hzn deploycheck` takes service definitions and service policies from: the Exchange, or
 * the files of `--service` (repeatable: the definitions to check, as `hzn exchange service
 * publish -f` reads them) and `--service-pol` (the service policy, for every service checked), as
 * upstream's flags. Dependencies not among the files are read from the Exchange.
 */
export interface ServiceSource {
  /** The definitions of one service version: for one arch, or every arch when `arch` is "". */
  definitions(svc: { org: string; url: string; version: string; arch: string }): Promise<ServiceDefinition[]>;
  policyOf(definition: ServiceDefinition): Promise<Json | undefined>;
  /** Every version of `org/url` (a dependency's candidates). */
  versions(org: string, url: string): Promise<DependencyRecord[]>;
}

export function exchangeServices(client: ExchangeClient): ServiceSource {
  return {
    definitions: (svc) => serviceDefinitions(client, svc),
    policyOf: (definition) => servicePolicyOf(client, definition),
    versions: async (org, url) => {
      const path = `orgs/${enc(org)}/services?${new URLSearchParams({ url })}`;
      const result = await client.expect('GET', path, [200, 404]);
      if (result.status === 404) return [];
      const answer = jsonBody(result, client.url(path)) as { services?: Record<string, unknown> } | undefined;
      return dependencyRecords(answer?.services);
    },
  };
}

/** The `--service` and `--service-pol` files over the Exchange's source (either may be absent). */
export async function serviceSourceOf(
  ctx: Ctx,
  exchange: ServiceSource,
  files: { services: string[]; servicePolicy: string | undefined; org: string },
): Promise<ServiceSource> {
  const defined = await Promise.all(files.services.map((file) => serviceFile(ctx, file, files.org)));
  const policy = files.servicePolicy
    ? requireObject(await readJsonFile(ctx, files.servicePolicy), files.servicePolicy)
    : undefined;
  const sameService = (d: ServiceDefinition, org: string, url: string) =>
    d.org === org && d.record.url === url;
  return {
    definitions: async (svc) => {
      if (defined.length === 0) return exchange.definitions(svc);
      return defined.filter(
        (d) =>
          sameService(d, svc.org, svc.url) &&
          d.record.version === svc.version &&
          (!svc.arch || d.record.arch === svc.arch),
      );
    },
    policyOf: async (definition) => policy ?? exchange.policyOf(definition),
    versions: async (org, url) => {
      const local = defined.filter((d) => sameService(d, org, url));
      if (local.length === 0) return exchange.versions(org, url);
      return dependencyRecords(Object.fromEntries(local.map((d) => [d.key, d.record])));
    },
  };
}

/** A service definition file: `url`, `version` and `arch` are what the checks need of it. */
async function serviceFile(ctx: Ctx, file: string, defaultOrg: string): Promise<ServiceDefinition> {
  const record = requireObject(await readJsonFile(ctx, file), file);
  for (const field of ['url', 'version', 'arch'] as const)
    if (typeof record[field] !== 'string' || record[field] === '')
      throw fatal(EXIT.CLI_INPUT_ERROR, `The service definition in ${file} has no '${field}'.`);
  const org = typeof record.org === 'string' && record.org ? record.org : defaultOrg;
  // A definition file carries its deployment as an object; the Exchange's record as a string.
  if (record.deployment && typeof record.deployment === 'object')
    record.deployment = JSON.stringify(record.deployment);
  return {
    key: `${org}/${String(record.url)}_${String(record.version)}_${String(record.arch)}`,
    org,
    record,
  };
}
