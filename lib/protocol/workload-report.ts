/**
 * A workload's state from its node's status report (`PUT /orgs/{org}/nodes/{id}/status`, the
 * agent's NodeStatus worker, docs/agent.md "Status reported to the Exchange"): one rule for every
 * reader of the reports (the agbot's status counts, docs/agbot.md "Status").
 */

/** One container of a service in the report (upstream's `containerStatus`). */
export interface ContainerReport {
  name?: string;
  image?: string;
  created?: number | string;
  state?: string;
}

/** One service of the report (upstream's `services[]`). */
export interface ServiceReport {
  agreementId?: string;
  version?: string;
  containerStatus?: ContainerReport[];
}

/** Engine states of a container that stopped or cannot stay up (Docker's `State`). */
const FAILED_STATES = new Set(['exited', 'dead', 'restarting']);

/**
 * `running`: the agreement's service is reported with every container running; `failing`: one of
 * its containers has exited, died or keeps restarting; undefined: not reported (yet), or still
 * starting (`created`, `not started`).
 */
export function workloadState(
  services: readonly ServiceReport[],
  agreementId: string,
): 'running' | 'failing' | undefined {
  const containers = services.find((s) => s.agreementId === agreementId)?.containerStatus ?? [];
  if (containers.some((c) => FAILED_STATES.has(c.state ?? ''))) return 'failing';
  if (containers.length > 0 && containers.every((c) => c.state === 'running')) return 'running';
  return undefined;
}

/** The `services` of a status answer (`GET …/nodes/{id}/status`); none for anything else. */
export const reportedServices = (answer: unknown): ServiceReport[] => {
  const services = (answer as { services?: unknown } | undefined)?.services;
  return Array.isArray(services) ? (services as ServiceReport[]) : [];
};
