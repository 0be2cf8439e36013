import { badInput } from '../ground/errors.ts';
import { own } from '../ground/own.ts';
import type { AttributeType } from './store.ts';

/**
 * Checks `mappings` for the attribute's type and returns them as stored (defaults filled in).
 * `where` prefixes the field named in a 400 (`mappings`, `service.attributes[0].mappings`, ...).
 */
export function checkMappings(
  type: AttributeType,
  mappings: Record<string, unknown>,
  where: string,
): Record<string, unknown> {
  switch (type) {
    case 'UserInputAttributes':
      return userInput(mappings, where);
    case 'HTTPSBasicAuthAttributes':
      return httpsBasic(mappings, where);
    case 'DockerRegistryAuthAttributes':
      return dockerAuths(mappings, where);
    case 'MeteringAttributes':
      return metering(mappings, where);
    case 'AgreementProtocolAttributes':
      return protocols(mappings, where);
  }
}

const isStringList = (value: unknown) => Array.isArray(value) && value.every((v) => typeof v === 'string');

/** Values are strings, numbers or lists of strings. */
function userInput(mappings: Record<string, unknown>, where: string) {
  for (const [key, value] of Object.entries(mappings)) {
    const fits = typeof value === 'string' || typeof value === 'number' || isStringList(value);
    if (!fits) throw badInput('value must be a string, a number or a list of strings', `${where}.${key}`);
  }
  return { ...mappings };
}

function httpsBasic(mappings: Record<string, unknown>, where: string) {
  const out: Record<string, string> = {};
  for (const key of ['url', 'username', 'password']) {
    const value = own(mappings, key);
    if (value === undefined) throw badInput('missing key', `${where}.${key}`);
    if (typeof value !== 'string') throw badInput('expected string', `${where}.${key}`);
    out[key] = value;
  }
  return out;
}

/** `auths`: a non-empty list of `{registry, username (default "token"), token}`. */
function dockerAuths(mappings: Record<string, unknown>, where: string) {
  const auths = mappings.auths;
  if (!Array.isArray(auths) || auths.length === 0)
    throw badInput('expected a non-empty list of registry credentials', `${where}.auths`);
  return {
    auths: auths.map((auth, index) => {
      const at = `${where}.auths[${index}]`;
      if (!auth || typeof auth !== 'object' || Array.isArray(auth)) throw badInput('expected an object', at);
      const { registry, username = 'token', token } = auth as Record<string, unknown>;
      if (typeof registry !== 'string' || registry === '')
        throw badInput('expected a non-empty string', `${at}.registry`);
      if (typeof username !== 'string') throw badInput('expected string', `${at}.username`);
      if (typeof token !== 'string' || token === '')
        throw badInput('expected a non-empty string', `${at}.token`);
      return { registry, username: username || 'token', token };
    }),
  };
}

/** `tokens` and `perTimeUnit` go together; `notificationInterval` is a whole number of seconds. */
function metering(mappings: Record<string, unknown>, where: string) {
  const { tokens = 0, perTimeUnit = '', notificationInterval = 0 } = mappings;
  if (typeof tokens !== 'number' || !Number.isInteger(tokens) || tokens < 0)
    throw badInput('expected a whole number', `${where}.tokens`);
  if (typeof perTimeUnit !== 'string' || !['', 'min', 'hour', 'day'].includes(perTimeUnit))
    throw badInput('expected min, hour or day', `${where}.perTimeUnit`);
  if ((tokens === 0) !== (perTimeUnit === ''))
    throw badInput('tokens and perTimeUnit must be given together', `${where}.perTimeUnit`);
  if (
    typeof notificationInterval !== 'number' ||
    !Number.isInteger(notificationInterval) ||
    notificationInterval < 0
  )
    throw badInput('expected a whole number', `${where}.notificationInterval`);
  return { tokens, perTimeUnit, notificationInterval };
}

const PROTOCOLS = ['Basic', 'Citizen Scientist'];

/** `protocols`: a non-empty list of `{"<protocol>": [...]}` naming supported protocols. */
function protocols(mappings: Record<string, unknown>, where: string) {
  const list = mappings.protocols;
  if (!Array.isArray(list) || list.length === 0)
    throw badInput('expected a non-empty list of agreement protocols', `${where}.protocols`);
  list.forEach((entry, index) => {
    const at = `${where}.protocols[${index}]`;
    const names = entry && typeof entry === 'object' && !Array.isArray(entry) ? Object.keys(entry) : [];
    if (names.length !== 1) throw badInput('expected an object with one protocol name', at);
    const name = names[0] as string;
    if (!PROTOCOLS.includes(name)) throw badInput(`protocol ${name} is not supported`, at);
    if (!Array.isArray(own(entry as Record<string, unknown>, name)))
      throw badInput('expected a list', `${at}.${name}`);
  });
  return { protocols: list };
}

/** Partial updates merge these types' mappings; the others cannot be patched (upstream). */
export const PATCHABLE: readonly AttributeType[] = [
  'UserInputAttributes',
  'HTTPSBasicAuthAttributes',
  'DockerRegistryAuthAttributes',
];

/** PATCH: keys merged (new value wins); registry credentials merged by registry and user. */
export function mergeMappings(
  type: AttributeType,
  current: Record<string, unknown>,
  patch: Record<string, unknown>,
): Record<string, unknown> {
  if (type !== 'DockerRegistryAuthAttributes' || !Array.isArray(patch.auths)) return { ...current, ...patch };
  type Auth = { registry?: unknown; username?: unknown };
  const merged = [...((current.auths as Auth[] | undefined) ?? [])];
  for (const auth of patch.auths as Auth[]) {
    const user = auth?.username ?? 'token';
    const index = merged.findIndex((a) => a.registry === auth?.registry && a.username === user);
    if (index >= 0) merged[index] = auth;
    else merged.push(auth);
  }
  return { ...current, ...patch, auths: merged };
}
