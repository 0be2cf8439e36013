import type { PolicyProperty } from '../exchange/types.ts';
import { badInput } from '../ground/errors.ts';
import type { HostFacts } from '../runtime/host.ts';

const ALLOW_PRIVILEGED = 'platform.allowPrivileged';

/** Properties measured from the host: whatever a caller or the Exchange says, these values win. */
function readOnlyBuiltins(host: HostFacts): PolicyProperty[] {
  return [
    { name: 'platform.hardwareId', value: host.hardwareId },
    { name: 'platform.cpu', value: host.cpu },
    { name: 'platform.arch', value: host.arch },
    { name: 'platform.memory', value: host.memoryMb },
  ];
}

/**
 * The property list as stored: the caller's own properties in their order, then the built-ins.
 * Read-only built-ins are replaced by measured values (so a policy read, edited and written back
 * keeps working); `platform.allowPrivileged` keeps the caller's value, else `previous`, else false.
 */
export function withBuiltins(
  properties: PolicyProperty[],
  host: HostFacts,
  previous = false,
): PolicyProperty[] {
  const readOnly = readOnlyBuiltins(host);
  const readOnlyNames = new Set(readOnly.map((p) => p.name));
  const given = properties.find((p) => p.name === ALLOW_PRIVILEGED);
  const allowPrivileged = given === undefined ? previous : toBoolean(given.value);
  const own = properties.filter((p) => p.name !== ALLOW_PRIVILEGED && !readOnlyNames.has(p.name));
  return [...own, ...readOnly, { name: ALLOW_PRIVILEGED, value: allowPrivileged }];
}

/** The current allowPrivileged value of a stored property list. */
export function allowPrivilegedOf(properties: PolicyProperty[] | undefined): boolean {
  return properties?.find((p) => p.name === ALLOW_PRIVILEGED)?.value === true;
}

function toBoolean(value: unknown): boolean {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw badInput(`${ALLOW_PRIVILEGED} must be true or false`, `properties.${ALLOW_PRIVILEGED}`);
}
