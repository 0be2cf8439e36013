/**
 * The node status the agent writes to `PUT /orgs/{org}/nodes/{node}/status`, built as anax's
 * governance worker builds it (governance/status.go, docs/agent.md "Status reported to the
 * Exchange"): one entry per service the node runs — each accepted agreement's top-level service
 * (with its agreement id) and each dependency instance's service (agreement id "") — listing one
 * container per service of its deployment: the engine's name, image, creation time (seconds) and
 * state, or the deployment's service name and image with state `not started` when the engine has
 * no such container. A container that exited within its current hold (exit-pacing.ts) and that the
 * engine started again (or is about to) is `restarting`, Docker's word for a container in a
 * restart loop: podman starts it again at once, so its own state would say `running`
 * (docs/agent.md, "Status reported to the Exchange"). A registered service the node has suspended
 * is listed with its config state.
 * anax leaves `connectivity` empty and lets the Exchange compute `runningServices`: so do we.
 */
import type { ContainerInfo } from 'dockerode';
import { parseDeployment } from '#lib/protocol/deployment';
import type { RegisteredService } from '../exchange/types.ts';
import { type ProtocolAgreement, termsOf } from '../protocol/records.ts';
import type { DependencyInstance } from '../services/dependency-store.ts';
import { splitServiceUrl } from '../services/registered.ts';
import { containerName } from '../workloads/container-spec.ts';

export interface ContainerStatus {
  name: string;
  image: string;
  created: number;
  state: string;
}

export interface WorkloadStatus {
  agreementId: string;
  serviceUrl: string;
  orgid: string;
  version: string;
  arch: string;
  containerStatus: ContainerStatus[];
  configState: string;
}

export interface NodeStatusReport {
  services: WorkloadStatus[];
}

export interface StatusSources {
  /** Active agreements (accepted and not terminated ones are reported). */
  agreements: ProtocolAgreement[];
  instances: DependencyInstance[];
  /** The engine's list of every container carrying the agreement label (running or not). */
  containers: ContainerInfo[];
  /** Ids of the containers that exited within their current hold (exit-pacing.ts `restarting`). */
  exited?: ReadonlySet<string>;
  registered: RegisteredService[];
}

const NOT_STARTED = 'not started';
/** Engine states of a container that is down and stays so: an exit before it is not a restart. */
const STAYS_DOWN = new Set(['exited', 'dead']);

const stateOf = (container: ContainerInfo, exited: ReadonlySet<string>): string =>
  exited.has(container.Id) && !STAYS_DOWN.has(container.State) ? 'restarting' : container.State;

/** Each deployment service's container as the engine shows it, or `not started`. */
function containersOf(
  key: string,
  deployment: string,
  onEngine: Map<string, ContainerInfo>,
  exited: ReadonlySet<string>,
) {
  let services: Record<string, { image: string }>;
  try {
    services = parseDeployment(deployment).services;
  } catch {
    return [];
  }
  return Object.entries(services).map(([serviceName, service]): ContainerStatus => {
    const found = onEngine.get(containerName(key, serviceName));
    if (!found) return { name: serviceName, image: service.image, created: 0, state: NOT_STARTED };
    return {
      name: found.Names[0] ?? '',
      image: found.Image,
      created: found.Created,
      state: stateOf(found, exited),
    };
  });
}

export function buildNodeStatus(sources: StatusSources): NodeStatusReport {
  const onEngine = new Map(sources.containers.map((c) => [(c.Names[0] ?? '').replace(/^\//, ''), c]));
  const exited = sources.exited ?? new Set<string>();
  const services: WorkloadStatus[] = [];
  for (const a of sources.agreements) {
    if (a.agreement_accepted_time === 0 || a.agreement_terminated_time > 0 || a.archived) continue;
    const deployment = termsOf(a)?.workloads?.[0]?.deployment;
    if (!deployment) continue;
    const w = a.workload_to_run;
    services.push({
      agreementId: a.current_agreement_id,
      serviceUrl: w.url,
      orgid: w.org,
      version: w.version,
      arch: w.arch,
      containerStatus: containersOf(a.current_agreement_id, deployment, onEngine, exited),
      configState: 'active',
    });
  }
  // anax lists a dependency's containers under its service definition, all instances together.
  const byService = new Map<string, WorkloadStatus>();
  for (const i of sources.instances) {
    const id = `${i.org}/${i.url}_${i.version}_${i.arch}`;
    const entry = byService.get(id) ?? {
      agreementId: '',
      serviceUrl: i.url,
      orgid: i.org,
      version: i.version,
      arch: i.arch,
      containerStatus: [],
      configState: 'active',
    };
    entry.containerStatus.push(...containersOf(i.instance_key, i.deployment, onEngine, exited));
    byService.set(id, entry);
  }
  services.push(...byService.values());
  for (const r of sources.registered) {
    if (r.configState !== 'suspended') continue;
    const { org, url } = splitServiceUrl(r.url);
    const same = services.filter((s) => s.orgid === org && s.serviceUrl === url);
    for (const s of same) s.configState = 'suspended';
    if (same.length === 0)
      services.push({
        agreementId: '',
        serviceUrl: url,
        orgid: org,
        version: r.version,
        arch: '',
        containerStatus: [],
        configState: 'suspended',
      });
  }
  return { services: services.filter((s) => s.containerStatus.length > 0 || s.configState === 'suspended') };
}

/**
 * Whether two reports say the same, as anax compares them (changeInWorkloadStatuses): the same
 * services, each with the same containers (name, image, created) in the same state. Order does
 * not count.
 */
export function sameNodeStatus(a: NodeStatusReport | undefined, b: NodeStatusReport): boolean {
  if (!a) return false;
  const canonical = (r: NodeStatusReport) =>
    r.services
      .map((s) =>
        JSON.stringify([
          s.agreementId,
          s.orgid,
          s.serviceUrl,
          s.version,
          s.arch,
          s.configState,
          s.containerStatus.map((c) => [c.name, c.image, c.created, c.state]).sort(),
        ]),
      )
      .sort()
      .join('\n');
  return canonical(a) === canonical(b);
}
