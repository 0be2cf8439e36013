import type Docker from 'dockerode';
import { type Deployment, DeploymentError } from '#lib/protocol/deployment';
import { describeHostAccess, type HostAccessOptions, hostAccessOf } from '#lib/protocol/privileged';
import { type ContainerPlan, containerName } from './container-spec.ts';
import {
  allWorkloadContainers,
  connectToNetwork,
  containersOf,
  type EngineNotice,
  ensureImage,
  ensureNetwork,
  removeWorkload,
  startContainer,
  workloadKeys,
} from './engine.ts';
import { type EnvironmentSources, serviceEnvironment } from './environment.ts';
import { linkNetworkName } from './instance-key.ts';
import type { SecretFiles, SecretValue } from './secret-files.ts';

/** Everything needed to run one agreement's top-level service. */
export interface WorkloadRequest {
  agreementId: string;
  deployment: Deployment;
  /** By the service's secret name, as the proposal's secretDetails decode. */
  secrets: Record<string, SecretValue>;
  /** The environment's sources except the deployment's own entries (taken per container). */
  environment: Omit<EnvironmentSources, 'deploymentEnvironment'>;
  nodeMemoryMb: number;
  allowPrivileged: boolean;
  /** A dependency instance (`agreementId` is then its instance key): labelled as infrastructure. */
  infrastructure?: boolean;
  /** Dependency link networks every container joins once started, with its service name as alias. */
  links?: string[];
}

/** What happened, for the event log (docs/protocol.md#workload-events); never carries secret values. */
export type WorkloadEvent =
  | { kind: 'image_loaded'; agreementId: string; image: string }
  | { kind: 'container_running'; agreementId: string; containers: string[] }
  | { kind: 'error_image_load'; agreementId: string; image: string; reason: string }
  | { kind: 'error_start_container'; agreementId: string; reason: string }
  | (EngineNotice & { agreementId: string });

type WorkloadHealth = 'running' | 'failed' | 'absent';

/**
 * Runs agreements' workloads on the engine. Each agreement's operations run one after another
 * (a start and a cancel of the same agreement never interleave), different agreements in
 * parallel, and none of it under the agent's write lock: pulls and starts are slow.
 */
export class WorkloadRunner {
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    private readonly docker: Docker,
    private readonly secretFiles: SecretFiles,
    private readonly report: (event: WorkloadEvent) => void,
    /** The agent's own host paths and link resolver for the host-access rule (host-guard.ts). */
    private readonly hostAccess: HostAccessOptions = {},
  ) {}

  /** Pulls, writes the secrets, creates the network and starts every container; all or nothing. */
  start(request: WorkloadRequest): Promise<void> {
    return this.inOrder(request.agreementId, () => this.startNow(request));
  }

  /**
   * Links a running dependency instance to a parent: the network `<key>_<parent>` (removed with
   * the parent) with each of the instance's containers in it under its service name.
   */
  link(key: string, parentKey: string, serviceNames: string[]): Promise<string> {
    return this.inOrder(key, async () => {
      const network = linkNetworkName(key, parentKey);
      await ensureNetwork(this.docker, network, parentKey, true);
      for (const name of serviceNames)
        await connectToNetwork(this.docker, network, containerName(key, name), [name]);
      return network;
    });
  }

  /** Rewrites the secret files in place; the containers keep running. */
  updateSecrets(agreementId: string, secrets: Record<string, SecretValue>): Promise<void> {
    return this.inOrder(agreementId, async () => this.secretFiles.write(agreementId, secrets));
  }

  /** Removes the containers, the network and the secret files (any cancel, unregistration). */
  stop(agreementId: string): Promise<void> {
    return this.inOrder(agreementId, async () => {
      await removeWorkload(this.docker, agreementId);
      this.secretFiles.remove(agreementId);
    });
  }

  /**
   * `failed` when fewer containers run than the deployment has services (upstream's cancel 103).
   * A container in `looping` (it exits again and again, and the engine starts it again each time)
   * does not count as running, whatever the engine shows at this instant.
   */
  async health(
    agreementId: string,
    deployment: Deployment,
    looping: ReadonlySet<string> = new Set(),
  ): Promise<WorkloadHealth> {
    const containers = await containersOf(this.docker, agreementId);
    if (containers.length === 0) return 'absent';
    const running = containers.filter((c) => c.State === 'running' && !looping.has(c.Id)).length;
    return running < Object.keys(deployment.services).length ? 'failed' : 'running';
  }

  /** The engine's list entries of an agreement's containers (GET /service's instances). */
  containers(agreementId: string): Promise<Docker.ContainerInfo[]> {
    return containersOf(this.docker, agreementId);
  }

  /** Every workload and dependency container on the engine, in one listing (the node status). */
  allContainers(): Promise<Docker.ContainerInfo[]> {
    return allWorkloadContainers(this.docker);
  }

  /** Agreement ids that have containers on the engine (to adopt them after a restart). */
  agreementsOnEngine(): Promise<string[]> {
    return workloadKeys(this.docker);
  }

  private async startNow(request: WorkloadRequest): Promise<void> {
    const { agreementId, deployment } = request;
    const notify = (notice: EngineNotice) => this.report({ ...notice, agreementId });
    // Refused before anything is pulled or written; containerSpec checks each container again.
    const access = request.allowPrivileged ? undefined : hostAccessOf(deployment, this.hostAccess)[0];
    if (access) {
      const reason = `${describeHostAccess(access)}, which the node policy does not allow`;
      this.report({ kind: 'error_start_container', agreementId, reason });
      throw new DeploymentError(reason);
    }
    for (const service of Object.values(deployment.services)) {
      try {
        await ensureImage(this.docker, service.image, notify);
      } catch (error) {
        this.report({
          kind: 'error_image_load',
          agreementId,
          image: service.image,
          reason: (error as Error).message,
        });
        throw error;
      }
      this.report({ kind: 'image_loaded', agreementId, image: service.image });
    }
    try {
      const hasSecrets = Object.keys(request.secrets).length > 0;
      if (hasSecrets) this.secretFiles.write(agreementId, request.secrets);
      await ensureNetwork(this.docker, agreementId, agreementId, request.infrastructure === true);
      const started: string[] = [];
      for (const [serviceName, service] of Object.entries(deployment.services)) {
        const plan: ContainerPlan = {
          key: agreementId,
          serviceName,
          service,
          env: serviceEnvironment({ ...request.environment, deploymentEnvironment: service.environment }),
          ...(hasSecrets ? { secretsDir: this.secretFiles.directoryOf(agreementId) } : {}),
          nodeMemoryMb: request.nodeMemoryMb,
          allowPrivileged: request.allowPrivileged,
          hostAccess: this.hostAccess,
          ...(request.infrastructure ? { infrastructure: true } : {}),
        };
        await startContainer(this.docker, plan, notify);
        started.push(containerName(agreementId, serviceName));
      }
      // Each container reaches every dependency by its service name (upstream connects after start).
      for (const network of request.links ?? []) {
        for (const [serviceName, service] of Object.entries(deployment.services))
          if (service.network !== 'host')
            await connectToNetwork(this.docker, network, containerName(agreementId, serviceName), [
              serviceName,
            ]);
      }
      this.report({ kind: 'container_running', agreementId, containers: started });
    } catch (error) {
      this.report({ kind: 'error_start_container', agreementId, reason: (error as Error).message });
      await removeWorkload(this.docker, agreementId);
      this.secretFiles.remove(agreementId);
      throw error;
    }
  }

  private inOrder<T>(agreementId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(agreementId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(work);
    const settled = next.catch(() => undefined);
    this.queues.set(agreementId, settled);
    void settled.then(() => {
      if (this.queues.get(agreementId) === settled) this.queues.delete(agreementId);
    });
    return next;
  }
}
