import { EXIT, fatal } from '../errors.ts';

type Json = Record<string, unknown>;

/**
 * `register -f`: the new format (an array of user input entries, docs/hzn-behaviour.md#hzn-userinput) as is; the old
 * format's `services[]` (`{org, url, versionRange, variables}`) converted to it. Old `global`
 * attributes have no place in this agent's API and are refused with a clear message.
 */
export function userInputOf(file: unknown, path: string): unknown[] {
  if (Array.isArray(file)) return file;
  if (file === null || typeof file !== 'object')
    throw fatal(
      EXIT.CLI_INPUT_ERROR,
      `failed to unmarshal JSON input file ${path}: expected an array of user inputs or {"services": [...]}`,
    );
  const old = file as { global?: unknown[]; services?: Json[] };
  if (
    Array.isArray(old.global) &&
    old.global.some((g) => Object.keys(((g as Json)?.variables ?? {}) as Json).length > 0)
  )
    throw fatal(
      EXIT.CLI_INPUT_ERROR,
      `The 'global' section of ${path} is not supported by this hzn: give the values as service user inputs.`,
    );
  return (old.services ?? []).map((s) => ({
    serviceOrgid: s.org,
    serviceUrl: s.url,
    serviceVersionRange: s.versionRange ?? '[0.0.0,INFINITY)',
    inputs: Object.entries((s.variables ?? {}) as Json).map(([name, value]) => ({ name, value })),
  }));
}
