import type { Command } from 'commander';
import {
  compareVersions,
  isValidVersion,
  isValidVersionRange,
  versionInRange,
} from '#lib/catalog/version-range';
import { act, type Base, group, leaf, str } from '../command-kit.ts';
import { EXIT, fatal } from '../errors.ts';
import { type ExchangeClient, jsonBody } from '../exchange-client.ts';
import { printJson } from '../output.ts';
import { mmsSession } from './nm-session.ts';

export const FILE_TYPES = ['agent_software_files', 'agent_config_files', 'agent_cert_files'];
export interface AgentFile {
  fileName: string;
  fileType: string;
  fileVersion: string;
  description?: string;
}

/** `<kind>-<version>` split at the first `-`, when the kind is an agent-files kind and the version semver. */
function splitType(type: string): { fileType: string; fileVersion: string } | undefined {
  const at = type.indexOf('-');
  if (at <= 0 || at === type.length - 1) return undefined;
  const fileType = type.slice(0, at);
  const fileVersion = type.slice(at + 1);
  return FILE_TYPES.includes(fileType) && isValidVersion(fileVersion) ? { fileType, fileVersion } : undefined;
}

/** Types descending, then versions newest first (semver; upstream sorts `versions` as strings). */
const byTypeThenVersion = (a: { fileType: string; fileVersion: string }, b: typeof a) =>
  a.fileType === b.fileType
    ? compareVersions(b.fileVersion, a.fileVersion)
    : a.fileType < b.fileType
      ? 1
      : -1;

/**
 * IBM's agent files (open-horizon/anax `cli/node_management/agentfiles.go` getAgentFiles): of one
 * kind (or all), of one version, a range, or `latest` (the newest of each kind).
 */
export async function agentFiles(
  client: ExchangeClient,
  kind: string,
  version: string,
): Promise<AgentFile[]> {
  const wanted = version.replace(/\s/g, '');
  const range = wanted && wanted !== 'latest' && !isValidVersion(wanted) ? wanted : undefined;
  if (range !== undefined && !isValidVersionRange(range))
    throw fatal(
      EXIT.CLI_INPUT_ERROR,
      '--version must specify a valid version range, a valid version string or "latest"',
    );
  const path = 'api/v1/objects/IBM?filters=true&deleted=false';
  const answer = await client.expect('GET', path, [200, 404]);
  if (answer.status === 404) return [];
  const found: AgentFile[] = [];
  for (const meta of jsonBody<Record<string, unknown>[]>(answer, client.url(path))) {
    const parts = splitType(String(meta.objectType ?? ''));
    if (!parts || (kind && parts.fileType !== kind)) continue;
    if (
      range
        ? !versionInRange(parts.fileVersion, range)
        : wanted && wanted !== 'latest' && parts.fileVersion !== wanted
    )
      continue;
    const description =
      typeof meta.description === 'string' && meta.description ? { description: meta.description } : {};
    found.push({ fileName: String(meta.objectID), ...parts, ...description });
  }
  found.sort(byTypeThenVersion);
  if (wanted !== 'latest') return found;
  return FILE_TYPES.flatMap((type) => {
    const newest = found.find((f) => f.fileType === type)?.fileVersion;
    return found.filter((f) => f.fileType === type && f.fileVersion === newest);
  });
}

const checkType = (type: string) => {
  if (type && !FILE_TYPES.includes(type))
    throw fatal(
      EXIT.CLI_INPUT_ERROR,
      `Invalid agent file type specified. Valid types include: ${FILE_TYPES.join(', ')}`,
    );
};

/** `hzn nm agentfiles|af list|versions` (docs/hzn.md#node-management-policies). */
export function agentFilesCommands(nm: Command, base: Base): void {
  const af = group(nm, ['agentfiles', 'af'], 'List agent files and types stored in the management hub.');
  const list = leaf(af, ['list', 'ls'], 'Display a list of agent files stored in the management hub.')
    .option('-t, --type <type>', 'Filter the list of agent upgrade files by the specified type.')
    .option('-V, --version <version>', "Filter by a version range, a single version string or 'latest'.");
  act(base, list, async (ctx, _args, opts) => {
    const type = str(opts.type) ?? '';
    checkType(type);
    const { client } = await mmsSession(ctx, opts);
    const files = await agentFiles(client, type, str(opts.version) ?? '');
    if (files.length === 0) return ctx.io.out('[]\n');
    printJson(ctx.io, files);
  });

  const versions = leaf(
    af,
    ['versions', 'ver'],
    'Display a list of agent file types with their corresponding versions.',
  )
    .option('-t, --type <type>', 'The type of agent files to list versions for.')
    .option(
      '-V, --version-only',
      'Show only a list of versions for a given file type. Must also specify --type.',
    );
  act(base, versions, async (ctx, _args, opts) => {
    const type = str(opts.type) ?? '';
    checkType(type);
    if (opts.versionOnly === true && !type)
      throw fatal(EXIT.CLI_INPUT_ERROR, 'must specify --type with --version-only');
    const { client } = await mmsSession(ctx, opts);
    const path = 'api/v1/objects/IBM?list_object_type=true';
    const answer = await client.expect('GET', path, [200, 404]);
    if (answer.status === 404) return ctx.io.out('[]\n');
    const types = jsonBody<string[]>(answer, client.url(path))
      .map(splitType)
      .filter(
        (t): t is { fileType: string; fileVersion: string } =>
          t !== undefined && (!type || t.fileType === type),
      )
      .sort(byTypeThenVersion);
    if (opts.versionOnly === true)
      return printJson(
        ctx.io,
        types.map((t) => t.fileVersion),
      );
    if (types.length === 0) return ctx.io.out('[]\n');
    printJson(
      ctx.io,
      types.map((t) => ({ fileType: t.fileType, version: t.fileVersion })),
    );
  });
}
