/**
 * Privileged services (docs/protocol.md#compatibility-checks check 11): a service whose deployment hands the host to a
 * container (itself or a dependency) may only run on a node that allows it. Upstream counts only
 * `privileged: true` and `network: host`; this rule, the one both the agbot and the agent apply,
 * counts every field that does it (docs/compatibility.md, "Host access"). Upstream nodes publish
 * `openhorizon.allowPrivileged`, ours `platform.allowPrivileged` (spec: built-in node properties
 * are `platform.*`); both are honoured so either agent can accept.
 */
import { capabilityName, isSafeCapability } from './capabilities.ts';
import type { Deployment, DeploymentService } from './deployment.ts';
import { bindRisk, type HostPathOptions } from './host-paths.ts';
import type { Property } from './policy-document.ts';

export const UPSTREAM_ALLOW_PRIVILEGED = 'openhorizon.allowPrivileged';
const PLATFORM_ALLOW_PRIVILEGED = 'platform.allowPrivileged';

/**
 * The consumer constraint added when the service needs privilege. Upstream writes
 * `openhorizon.allowPrivileged = true`; the `||` keeps it satisfiable by our agent's property too.
 */
export const PRIVILEGED_CONSTRAINT = `${UPSTREAM_ALLOW_PRIVILEGED} = true || ${PLATFORM_ALLOW_PRIVILEGED} = true`;

/** One field of one container that hands over the host: what the event log and skip reasons say. */
export interface HostAccess {
  /** The container's name in the deployment's `services`. */
  container: string;
  field: 'privileged' | 'network' | 'pid' | 'ipc' | 'binds' | 'devices' | 'cap_add' | 'security_opt';
  /** The value as the deployment gives it (cut to 100 characters). */
  value: string;
  why: string;
}

export type HostAccessOptions = HostPathOptions;

/** A namespace mode that joins the host's (or another container's) namespace. */
const sharedNamespace = (mode: unknown): boolean => {
  const value = String(mode ?? '')
    .trim()
    .toLowerCase();
  return value === 'host' || value.startsWith('container:');
};

/** `no-new-privileges` only narrows a container; every other option (unconfined seccomp or AppArmor, `label=disable`) widens it. */
const narrowingOption = (option: string): boolean =>
  /^no-new-privileges([:=]true)?$/.test(option.trim().toLowerCase());

const asStrings = (value: unknown): string[] =>
  Array.isArray(value) ? value.map(String) : value === undefined ? [] : [String(value)];

/**
 * Every field of one container that hands over the host. `pid`, `ipc` and `security_opt` are not
 * typed by the deployment parser (our agent does not pass them to the engine; upstream's does), so
 * they are read as given.
 */
export function containerHostAccess(
  container: string,
  service: DeploymentService,
  options: HostAccessOptions = {},
): HostAccess[] {
  const found: HostAccess[] = [];
  const add = (field: HostAccess['field'], value: string, why: string) =>
    found.push({ container, field, value: value.slice(0, 100), why });
  const extra = service as Record<string, unknown>;
  if (service.privileged === true) add('privileged', 'true', 'runs with every device and capability');
  if (service.network?.trim().toLowerCase() === 'host')
    add('network', service.network, "shares the host's network");
  if (sharedNamespace(extra.pid))
    add('pid', String(extra.pid), 'shares a process namespace outside the service');
  if (sharedNamespace(extra.ipc))
    add('ipc', String(extra.ipc), 'shares an IPC namespace outside the service');
  for (const bind of service.binds ?? []) {
    const risk = bindRisk(bind, options);
    if (risk) add('binds', bind, risk);
  }
  for (const device of service.devices ?? []) add('devices', device, 'reaches a host device');
  for (const cap of service.cap_add ?? [])
    if (!isSafeCapability(cap)) add('cap_add', cap, `adds ${capabilityName(cap) || 'an unnamed capability'}`);
  for (const option of asStrings(extra.security_opt))
    if (!narrowingOption(option)) add('security_opt', option, 'lifts a confinement');
  return found;
}

/** Every field of every container of the deployment that hands over the host. */
export const hostAccessOf = (deployment: Deployment, options: HostAccessOptions = {}): HostAccess[] =>
  Object.entries(deployment.services).flatMap(([name, service]) =>
    containerHostAccess(name, service, options),
  );

/** Whether the deployment needs a node that allows privileged services. */
export const deploymentNeedsPrivilege = (deployment: Deployment, options: HostAccessOptions = {}): boolean =>
  hostAccessOf(deployment, options).length > 0;

/** `container web: binds "/:/host" mounts the host's /`. */
export const describeHostAccess = (access: HostAccess): string =>
  `container ${access.container}: ${access.field} ${JSON.stringify(access.value)} ${access.why}`;

/** The refusal every side gives (the agent's proposal decision, the agbot's skip), naming the first field. */
export const privilegeRefusal = (access: HostAccess): string =>
  `the service needs privileged mode, which the node policy does not allow (${describeHostAccess(access)})`;

/** Whether the node's properties allow privileged services (either spelling, boolean or "true"). */
export const nodeAllowsPrivilege = (properties: readonly Property[]): boolean =>
  properties.some(
    (p) =>
      (p.name === UPSTREAM_ALLOW_PRIVILEGED || p.name === PLATFORM_ALLOW_PRIVILEGED) &&
      (p.value === true || p.value === 'true'),
  );
