import Docker from 'dockerode';
import { type ContainerPlan, containerSpec, LABELS } from './container-spec.ts';

/** What the engine layer reports for the event log; the caller words and stores the events. */
export type EngineNotice =
  | { kind: 'image_local_fallback'; image: string; reason: string }
  | { kind: 'log_driver_fallback'; container: string; driver: string; reason: string };

class EngineError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EngineError';
  }
}

/** The engine's socket: DOCKER_HOST (`unix:///...`), else Docker's default, as upstream finds it. */
export function engineSocketPath(dockerHost = process.env.DOCKER_HOST): string {
  const host = dockerHost || 'unix:///var/run/docker.sock';
  if (!host.startsWith('unix://')) throw new EngineError(`DOCKER_HOST must be a unix:// socket, got ${host}`);
  return host.slice('unix://'.length);
}

export const engineAt = (dockerHost = process.env.DOCKER_HOST, timeoutMs?: number): Docker =>
  new Docker({ socketPath: engineSocketPath(dockerHost), ...(timeoutMs ? { timeout: timeoutMs } : {}) });

/**
 * Pulls `image`. Podman answers a failed pull with HTTP 200 and the error inside the streamed
 * body, so the whole stream is read before deciding. When the pull fails but the image exists
 * locally (no registry reachable), the local one is used and a notice says so.
 */
export async function ensureImage(
  docker: Docker,
  image: string,
  notify: (n: EngineNotice) => void,
): Promise<void> {
  const failure = await pullError(docker, image);
  if (failure === undefined) return;
  try {
    await docker.getImage(image).inspect();
  } catch {
    throw new EngineError(`image ${image} could not be pulled and is not on this node: ${failure}`);
  }
  notify({ kind: 'image_local_fallback', image, reason: failure });
}

async function pullError(docker: Docker, image: string): Promise<string | undefined> {
  try {
    const stream = await docker.pull(image);
    const events: Array<{ error?: string; errorDetail?: { message?: string } }> = await new Promise(
      (resolve, reject) =>
        docker.modem.followProgress(stream, (error, output) =>
          error ? reject(error) : resolve(output ?? []),
        ),
    );
    const failed = events.find((event) => event.error || event.errorDetail);
    return failed ? (failed.errorDetail?.message ?? failed.error ?? 'pull failed') : undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * A bridge network, created when missing: an instance's own network is named after its key; a
 * dependency's link network `<dependency>_<parent>` belongs to the parent (`owner`), so it goes
 * when the parent's workload is removed.
 */
export async function ensureNetwork(
  docker: Docker,
  name: string,
  owner: string = name,
  infrastructure = false,
): Promise<void> {
  const existing = await docker.listNetworks({ filters: { name: [name] } });
  if (existing.some((network) => network.Name === name)) return;
  await docker.createNetwork({
    Name: name,
    Driver: 'bridge',
    Labels: {
      [LABELS.network]: '',
      [LABELS.agreementId]: owner,
      ...(infrastructure ? { [LABELS.infrastructure]: '' } : {}),
    },
  });
}

/** Connects a container to a network under `aliases`; one already connected is left as it is. */
export async function connectToNetwork(
  docker: Docker,
  network: string,
  container: string,
  aliases: string[],
): Promise<void> {
  const info = (await docker.getNetwork(network).inspect()) as {
    Containers?: Record<string, { Name?: string }>;
  };
  if (Object.values(info.Containers ?? {}).some((c) => c.Name === container)) return;
  await docker.getNetwork(network).connect({ Container: container, EndpointConfig: { Aliases: aliases } });
}

/**
 * Creates and starts one container. A log driver the engine cannot use (podman without a journal
 * answers 500 for `syslog` and `journald`) is dropped and the container created again with the
 * engine's default, as upstream does when the log driver fails.
 */
export async function startContainer(
  docker: Docker,
  plan: ContainerPlan,
  notify: (n: EngineNotice) => void,
): Promise<Docker.Container> {
  const spec = containerSpec(plan);
  let container: Docker.Container;
  try {
    container = await docker.createContainer(spec);
  } catch (error) {
    const driver = spec.HostConfig?.LogConfig?.Type;
    if (!driver) throw error;
    notify({
      kind: 'log_driver_fallback',
      container: spec.name as string,
      driver,
      reason: (error as Error).message,
    });
    const { LogConfig: _dropped, ...hostConfig } = spec.HostConfig ?? {};
    container = await docker.createContainer({ ...spec, HostConfig: hostConfig });
  }
  await container.start();
  return container;
}

/** Containers of one instance key (running or not), found by upstream's agreement label. */
export async function containersOf(docker: Docker, key: string): Promise<Docker.ContainerInfo[]> {
  return docker.listContainers({ all: true, filters: { label: [`${LABELS.agreementId}=${key}`] } });
}

/** Every container of every instance key on the engine (running or not), in one listing. */
export const allWorkloadContainers = (docker: Docker): Promise<Docker.ContainerInfo[]> =>
  docker.listContainers({ all: true, filters: { label: [LABELS.agreementId] } });

/** Every agreement key that has containers on the engine (adoption after an agent restart). */
export async function workloadKeys(docker: Docker): Promise<string[]> {
  const containers = await allWorkloadContainers(docker);
  return [
    ...new Set(containers.map((c) => c.Labels[LABELS.agreementId]).filter((k): k is string => Boolean(k))),
  ];
}

/** Stops and removes an instance's containers and its network. Absent pieces are not an error. */
export async function removeWorkload(docker: Docker, key: string): Promise<void> {
  for (const info of await containersOf(docker, key)) {
    await ignoreMissing(docker.getContainer(info.Id).remove({ force: true }));
  }
  const networks = await docker.listNetworks({ filters: { label: [`${LABELS.agreementId}=${key}`] } });
  for (const network of networks) {
    // A link network still holds the dependency's containers, which outlive this parent.
    const info = (await docker
      .getNetwork(network.Id)
      .inspect()
      .catch(() => ({}))) as { Containers?: Record<string, unknown> };
    for (const id of Object.keys(info.Containers ?? {}))
      await ignoreMissing(docker.getNetwork(network.Id).disconnect({ Container: id, Force: true }));
    await ignoreMissing(docker.getNetwork(network.Id).remove());
  }
}

async function ignoreMissing(operation: Promise<unknown>): Promise<void> {
  try {
    await operation;
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode !== 404) throw error;
  }
}
