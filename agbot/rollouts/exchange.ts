/**
 * What the rollout step asks of the Exchange (docs/rollouts.md): the plan and the operator's
 * actions, a node's status and heartbeat, and the agbot's report.
 */
import { reportedServices, type ServiceReport, workloadState } from '#lib/protocol/workload-report';
import { type RolloutControl, rolloutControl } from '#lib/rollout/control';
import { type RolloutPlan, rolloutPlan } from '#lib/rollout/plan';
import type { RolloutStatus } from '#lib/rollout/status';
import { type AgbotExchange, AgbotExchangeError } from '../exchange.ts';

const enc = encodeURIComponent;
const rolloutPath = (policy: string) => {
  const at = policy.indexOf('/');
  return `/orgs/${enc(policy.slice(0, at))}/business/policies/${enc(policy.slice(at + 1))}/rollout`;
};
const nodePath = (node: string) => {
  const at = node.indexOf('/');
  return `/orgs/${enc(node.slice(0, at))}/nodes/${enc(node.slice(at + 1))}`;
};

async function orNone<T>(work: Promise<T>): Promise<T | undefined> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof AgbotExchangeError && error.status === 404) return undefined;
    throw error;
  }
}

export interface PlanRead {
  plan: RolloutPlan;
  control: RolloutControl;
  lastUpdated: string;
}

/** The policy's plan, or undefined without one (or a plan this agbot cannot read). */
export async function readPlan(exchange: AgbotExchange, policy: string): Promise<PlanRead | undefined> {
  const answer = (await orNone(exchange.call('GET', rolloutPath(policy), undefined, [200]))) as
    | Record<string, unknown>
    | undefined;
  if (!answer) return undefined;
  const plan = rolloutPlan.safeParse(answer.plan);
  const control = rolloutControl.safeParse(answer.control);
  if (!plan.success || !control.success) return undefined;
  return { plan: plan.data, control: control.data, lastUpdated: String(answer.lastUpdated) };
}

export async function reportStatus(
  exchange: AgbotExchange,
  policy: string,
  status: RolloutStatus,
): Promise<void> {
  await orNone(exchange.call('PUT', `${rolloutPath(policy)}/status`, status));
}

/** The services of the node's status report (`GET …/nodes/{id}/status`), none without one. */
export async function readNodeServices(exchange: AgbotExchange, node: string): Promise<ServiceReport[]> {
  const at = node.indexOf('/');
  return reportedServices(await exchange.nodeStatus(node.slice(0, at), node.slice(at + 1)));
}

/** The node's last heartbeat (ms), undefined when unknown. */
export async function readHeartbeat(exchange: AgbotExchange, node: string): Promise<number | undefined> {
  const answer = (await orNone(exchange.call('GET', nodePath(node), undefined, [200]))) as
    | { nodes?: Record<string, { lastHeartbeat?: string }> }
    | undefined;
  const record = answer?.nodes?.[node];
  const at = record?.lastHeartbeat ? Date.parse(record.lastHeartbeat.replace(/\[.*\]$/, '')) : Number.NaN;
  return Number.isNaN(at) ? undefined : at;
}

/**
 * Whether the report shows the agreement's service at `version` with every container running,
 * and its containers' signature (`name@created`, sorted): a changed signature is a restart.
 */
export function runningIn(
  services: readonly ServiceReport[],
  agreementId: string,
  version: string,
): { running: boolean; containers: string } {
  const service = services.find((s) => s.agreementId === agreementId);
  const containers = service?.containerStatus ?? [];
  const running = service?.version === version && workloadState(services, agreementId) === 'running';
  const signature = containers
    .map((c) => `${c.name ?? ''}@${c.created ?? ''}`)
    .sort()
    .join(',');
  return { running, containers: signature };
}
