import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXIT, fatal } from './errors.ts';
import type { Io } from './io.ts';

/**
 * The environment a command sees (docs/hzn-behaviour.md#config-files): the real environment, then for variables
 * it lacks `~/.hzn/hzn.json` > `/etc/default/horizon` > `/etc/horizon/hzn.json`, then a project
 * `hzn.json` (next to `service.definition.json`, or in `./horizon/`). Flags override all of it.
 */
export type Env = Record<string, string | undefined>;

const KNOWN_KEYS = new Set([
  'HZN_EXCHANGE_USER_AUTH',
  'HZN_EXCHANGE_NODE_AUTH',
  'HZN_ORG_ID',
  'HZN_LANG',
  'HORIZON_URL',
  'HZN_EXCHANGE_URL',
  'HZN_HTTP_RETRIES',
  'HZN_HTTP_RETRY_INTERVAL',
  'HZN_HTTP_TIMEOUT',
  'HZN_FSS_CSSURL',
  'HZN_AGBOT_URL',
  'HZN_PRIVATE_KEY_FILE',
  'HZN_PUBLIC_KEY_FILE',
  'HZN_DEVICE_ID',
  'HZN_NODE_ID',
  'HZN_PATTERN',
  'HZN_REGISTER_HTTP_TIMEOUT',
]);

/** `/* ... *\/` comments removed (upstream allows them in hzn.json and in input files). */
export const stripComments = (text: string): string => text.replace(/\/\*[\s\S]*?\*\//g, '');

/** The variables of one hzn.json file; bad JSON is exit 7 as upstream. */
function jsonFileVars(path: string): Env {
  if (!existsSync(path)) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(stripComments(readFileSync(path, 'utf8')));
  } catch (err) {
    throw fatal(EXIT.CLI_GENERAL_ERROR, `failed to unmarshal ${path}: ${(err as Error).message}`);
  }
  const vars: Env = {};
  if (parsed === null || typeof parsed !== 'object') return vars;
  for (const [key, value] of Object.entries(parsed)) {
    if (KNOWN_KEYS.has(key) || key.startsWith('HZN_DEV_FSS_')) {
      if (typeof value === 'string') vars[key] = value;
    } else if (key === 'MetadataVars' && value && typeof value === 'object') {
      for (const [name, v] of Object.entries(value)) if (typeof v === 'string') vars[name] = v;
    }
  }
  return vars;
}

/** `KEY=VALUE` lines; `#` comments skipped; the value is what lies between the first and second `=`. */
function defaultsFileVars(path: string): Env {
  if (!existsSync(path)) return {};
  const vars: Env = {};
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const parts = trimmed.split('=');
    if (parts.length < 2) continue;
    vars[(parts[0] as string).trim()] = (parts[1] as string).trim();
  }
  return vars;
}

function projectFile(cwd: string): string | undefined {
  if (existsSync(join(cwd, 'service.definition.json'))) return join(cwd, 'hzn.json');
  if (existsSync(join(cwd, 'horizon', 'service.definition.json'))) return join(cwd, 'horizon', 'hzn.json');
  return undefined;
}

export function loadEnv(io: Io): Env {
  const env: Env = { ...io.env };
  const absent = (key: string) => io.env[key] === undefined;
  // Later files overwrite earlier ones; none overwrites the real environment.
  const layers = [
    jsonFileVars(join(io.etcDir, 'horizon', 'hzn.json')),
    defaultsFileVars(join(io.etcDir, 'default', 'horizon')),
    io.home ? jsonFileVars(join(io.home, '.hzn', 'hzn.json')) : {},
  ];
  for (const layer of layers)
    for (const [key, value] of Object.entries(layer)) if (absent(key)) env[key] = value;
  const project = projectFile(io.cwd);
  if (project)
    for (const [key, value] of Object.entries(jsonFileVars(project)))
      if (env[key] === undefined) env[key] = value;
  // Input files may say $ARCH; upstream sets it to Go's arch name when unset.
  env.ARCH ??= goArch(process.arch);
  return env;
}

/** Node's arch names as Go spells them. */
export function goArch(arch: string): string {
  const names: Record<string, string> = {
    x64: 'amd64',
    arm64: 'arm64',
    arm: 'arm',
    ppc64: 'ppc64le',
    s390x: 's390x',
  };
  return names[arch] ?? arch;
}

/** A non-empty value, or undefined (an empty variable counts as unset, as upstream's checks do). */
export const nonEmpty = (value: string | undefined): string | undefined =>
  value === undefined || value === '' ? undefined : value;
