/**
 * The environment of a service container, built in upstream's order
 * (docs/protocol.md#environment-variables): node facts, then user input (node's first, then the deployment policy's, then the
 * service's defaults; the first writer of a name wins), then the deployment's own `environment`
 * entries, then the platform variables, which override everything.
 */
interface NodeFacts {
  cpus: number;
  memoryMb: number;
  arch: string;
  hardwareId: string;
  hostIps: string[];
  allowPrivileged: boolean;
}

interface PlatformFacts {
  /** Absent for dependent services. */
  agreementId?: string;
  nodeId: string;
  org: string;
  /** `org/pattern`, or '' for policy-based nodes. */
  pattern: string;
  exchangeUrl: string;
}

export type InputValue = string | number | boolean | string[];

export interface EnvironmentSources {
  node: NodeFacts;
  platform: PlatformFacts;
  /** In precedence order: node user input, deployment policy user input, service defaults. */
  userInputs: Array<Record<string, InputValue>>;
  /** The deployment's `environment` entries (`NAME=value`), appended as given. */
  deploymentEnvironment?: string[];
}

/** Upstream's rendering: strings as is, whole numbers without decimals, other floats with 6. */
export function renderValue(value: InputValue): string {
  if (Array.isArray(value)) return value.join(' ');
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : value.toFixed(6);
  return String(value);
}

export function serviceEnvironment(sources: EnvironmentSources): string[] {
  const env = new Map<string, string>([
    ['HZN_CPUS', renderValue(sources.node.cpus)],
    ['HZN_RAM', renderValue(sources.node.memoryMb)],
    ['HZN_ARCH', sources.node.arch],
    ['HZN_HARDWAREID', sources.node.hardwareId],
    ['HZN_PRIVILEGED', String(sources.node.allowPrivileged)],
    ['HZN_HOST_IPS', sources.node.hostIps.join(',')],
  ]);
  const inputNames = new Set<string>();
  for (const inputs of sources.userInputs) {
    for (const [name, value] of Object.entries(inputs)) {
      if (inputNames.has(name)) continue;
      inputNames.add(name);
      env.set(name, renderValue(value));
    }
  }
  const platform = platformVariables(sources.platform);
  const lines = [...env].filter(([name]) => !platform.has(name)).map(([name, value]) => `${name}=${value}`);
  const deployment = (sources.deploymentEnvironment ?? []).filter(
    (line) => !platform.has(line.split('=')[0] ?? ''),
  );
  return [...lines, ...deployment, ...[...platform].map(([name, value]) => `${name}=${value}`)];
}

function platformVariables(platform: PlatformFacts): Map<string, string> {
  const variables = new Map<string, string>();
  if (platform.agreementId) variables.set('HZN_AGREEMENTID', platform.agreementId);
  variables.set('HZN_DEVICE_ID', platform.nodeId);
  variables.set('HZN_NODE_ID', platform.nodeId);
  variables.set('HZN_ORGANIZATION', platform.org);
  variables.set('HZN_PATTERN', platform.pattern);
  variables.set(
    'HZN_EXCHANGE_URL',
    platform.exchangeUrl.endsWith('/') ? platform.exchangeUrl : `${platform.exchangeUrl}/`,
  );
  return variables;
}
