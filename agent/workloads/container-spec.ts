import { createHash } from 'node:crypto';
import type Docker from 'dockerode';
import { DeploymentError, type DeploymentService } from '#lib/protocol/deployment';
import { containerHostAccess, describeHostAccess, type HostAccessOptions } from '#lib/protocol/privileged';

/** Upstream's labels, so tools written for anax find our containers (docs/protocol.md#containers-networks-and-labels). */
export const LABELS = {
  agreementId: 'openhorizon.anax.agreement_id',
  serviceName: 'openhorizon.anax.service_name',
  descriptionHash: 'openhorizon.anax.deployment_description_hash',
  network: 'openhorizon.anax.network',
  /** On dependency instances' containers and networks (upstream marks them so). */
  infrastructure: 'openhorizon.anax.infrastructure',
} as const;

/** Our mount point and upstream's, for the same read-only secrets directory. */
const SECRET_MOUNTS = ['/platform-secrets', '/open-horizon-secrets'] as const;

export interface ContainerPlan {
  /** The instance key: the agreement id for a top-level service. */
  key: string;
  serviceName: string;
  service: DeploymentService;
  env: string[];
  /** Host directory with the agreement's secret files, when it has any. */
  secretsDir?: string;
  /** `HZN_RAM`: the memory limit when the deployment sets none. */
  nodeMemoryMb: number;
  /** The node policy's `platform.allowPrivileged`. */
  allowPrivileged: boolean;
  /** The agent's own host paths and link resolver for the host-access rule (host-guard.ts). */
  hostAccess?: HostAccessOptions;
  /** A dependency instance's container (labelled `openhorizon.anax.infrastructure`). */
  infrastructure?: boolean;
}

/** Container name `<key>-<service>`, as upstream names them. */
export const containerName = (key: string, serviceName: string): string => `${key}-${serviceName}`;

/** Base64url SHA-256 of the service's deployment JSON, upstream's change marker. */
export const descriptionHash = (service: DeploymentService): string =>
  createHash('sha256').update(JSON.stringify(service)).digest('base64url');

/**
 * The engine's create options for one container of a deployment: name, labels, the agreement's
 * bridge network with the service name as alias (unless `network: host`), env, binds with the
 * secrets directory mounted read-only at both mount points, ports, devices, the memory limit, and
 * restart policy `always`. Any field that hands over the host (lib/protocol/privileged.ts) only
 * when the node allows privileged services: the last check before the engine, whatever let the
 * deployment this far.
 */
export function containerSpec(plan: ContainerPlan): Docker.ContainerCreateOptions {
  const { service } = plan;
  const access = plan.allowPrivileged
    ? undefined
    : containerHostAccess(plan.serviceName, service, plan.hostAccess)[0];
  if (access)
    throw new DeploymentError(`${describeHostAccess(access)}, which the node policy does not allow`);
  const hostNetwork = service.network === 'host';
  const { exposed, bindings } = portBindings([...(service.ports ?? []), ...(service.specific_ports ?? [])]);
  const secretBinds = plan.secretsDir ? SECRET_MOUNTS.map((mount) => `${plan.secretsDir}:${mount}:ro`) : [];
  return {
    name: containerName(plan.key, plan.serviceName),
    Image: service.image,
    ...(service.command ? { Cmd: service.command } : {}),
    ...(service.entrypoint ? { Entrypoint: service.entrypoint } : {}),
    ...(service.user ? { User: service.user } : {}),
    Env: plan.env,
    Labels: {
      [LABELS.agreementId]: plan.key,
      [LABELS.serviceName]: plan.serviceName,
      [LABELS.descriptionHash]: descriptionHash(service),
      ...(plan.infrastructure ? { [LABELS.infrastructure]: '' } : {}),
    },
    ExposedPorts: exposed,
    HostConfig: {
      Binds: [...(service.binds ?? []), ...secretBinds],
      PortBindings: bindings,
      Devices: (service.devices ?? []).map(deviceMapping),
      Privileged: service.privileged === true,
      CapAdd: service.cap_add ?? [],
      NetworkMode: hostNetwork ? 'host' : plan.key,
      RestartPolicy: { Name: 'always' },
      Memory: (service.max_memory_mb || plan.nodeMemoryMb) * 1024 * 1024,
      ...(service.max_cpus ? { NanoCpus: Math.round(service.max_cpus * 1e9) } : {}),
      ...(service.log_driver ? { LogConfig: { Type: service.log_driver, Config: {} } } : {}),
    },
    ...(hostNetwork
      ? {}
      : { NetworkingConfig: { EndpointsConfig: { [plan.key]: { Aliases: [plan.serviceName] } } } }),
  };
}

/** `HostPort` is `<host>[:<container>][/proto]`; the container port defaults to the host port. */
function portBindings(ports: Array<{ HostPort: string; HostIP?: string }>) {
  const exposed: Record<string, object> = {};
  const bindings: Record<string, Array<{ HostPort: string; HostIp: string }>> = {};
  for (const port of ports) {
    const match = /^(\d{1,5})(?::(\d{1,5}))?(?:\/(tcp|udp|sctp))?$/.exec(port.HostPort);
    if (!match) throw new DeploymentError(`ports: '${port.HostPort}' is not <host>[:<container>][/proto]`);
    const [, host, container = host, protocol = 'tcp'] = match;
    const key = `${container}/${protocol}`;
    exposed[key] = {};
    bindings[key] = [...(bindings[key] ?? []), { HostPort: host as string, HostIp: port.HostIP ?? '' }];
  }
  return { exposed, bindings };
}

/** `host[:container[:perms]]`, permissions `rwm` by default. */
function deviceMapping(device: string) {
  const [host, container = host, permissions = 'rwm'] = device.split(':');
  return { PathOnHost: host as string, PathInContainer: container as string, CgroupPermissions: permissions };
}
