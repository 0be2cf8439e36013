/**
 * GET /service's `definitions` and `instances` (docs/agent.md#endpoints): one of each per
 * agreement that was accepted, built from the stored proposal (its
 * deployment and signature), the service's Exchange record as read when the proposal came, and
 * the engine's list of the agreement's containers. Allow-lists only: secret values live in the
 * secret files and the proposal's secret details are never read here.
 */
import type { ContainerInfo } from 'dockerode';
import { isArchived, loadAgreements } from '../agreements/store.ts';
import { type ProtocolAgreement, termsOf } from '../protocol/records.ts';
import type { AgentContext } from '../runtime/context.ts';
import { loadServiceConfigs } from './config-store.ts';
import { type DependencyInstance, findInstance, loadInstances, usersOf } from './dependency-store.ts';

const ANY_VERSION = '[0.0.0,INFINITY)';

function definitionView(ctx: AgentContext, a: ProtocolAgreement) {
  const { url, org, version, arch } = a.workload_to_run;
  const workload = termsOf(a)?.workloads?.[0];
  const record = a.service_record;
  const config = loadServiceConfigs(ctx.store).find((c) => c.organization === org && c.url === url);
  return {
    record_id: a.current_agreement_id,
    owner: record?.owner ?? '',
    label: record?.label ?? '',
    description: record?.description ?? '',
    name: url,
    specRef: url,
    organization: org,
    version,
    arch,
    sharable: record?.sharable ?? 'multiple',
    downloadUrl: '',
    matchHardware: record?.matchHardware ?? {},
    userInput: (a.declared_inputs ?? []).map((i) => ({
      name: i.name,
      label: i.label ?? '',
      type: i.type ?? '',
      defaultValue: i.defaultValue ?? '',
    })),
    workloads: null,
    public: record?.public ?? false,
    requiredServices: record?.requiredServices ?? [],
    deployment: workload?.deployment ?? '',
    deployment_signature: workload?.deployment_signature ?? '',
    lastUpdated: record?.lastUpdated ?? '',
    archived: isArchived(a),
    requested_arch: arch,
    upgrade_version_range: config?.versionRange ?? ANY_VERSION,
    auto_upgrade: config?.auto_upgrade ?? true,
    active_upgrade: config?.active_upgrade ?? false,
    upgrade_start_time: 0,
    upgrade_ms_unregistered_time: 0,
    upgrade_agreements_cleared_time: 0,
    upgrade_execution_start_time: 0,
    upgrade_ms_reregistered_time: 0,
    upgrade_failed_time: 0,
    upgrade_failure_reason: 0,
    upgrade_failure_description: '',
    upgrade_new_ms_id: '',
    metadata_hash: '',
  };
}

/** The engine's entry, allow-listed (Docker Engine API names); never the environment. */
function containerView(c: ContainerInfo) {
  return {
    Id: c.Id,
    Image: c.Image,
    Command: c.Command,
    Created: c.Created,
    State: c.State,
    Status: c.Status,
    Names: c.Names,
    Labels: c.Labels,
    Ports: c.Ports,
    NetworkSettings: { Networks: c.NetworkSettings?.Networks ?? {} },
    Mounts: (c.Mounts ?? []).map((m) => ({
      Type: m.Type,
      Source: m.Source,
      Destination: m.Destination,
      Mode: m.Mode,
      RW: m.RW,
    })),
  };
}

function instanceView(a: ProtocolAgreement, containers: ContainerInfo[]) {
  const { url, org, version, arch } = a.workload_to_run;
  const failed = a.terminated_reason !== 0 && a.agreement_execution_start_time === 0;
  return {
    ref_url: url,
    organization: org,
    version,
    arch,
    instance_id: a.current_agreement_id,
    archived: isArchived(a),
    instance_creation_time: a.agreement_accepted_time,
    execution_start_time: a.agreement_execution_start_time,
    cleanup_start_time: a.agreement_terminated_time,
    retry_start_time: 0,
    execution_failure_code: failed ? a.terminated_reason : 0,
    execution_failure_desc: failed ? a.terminated_description : '',
    associated_agreements: [a.current_agreement_id],
    microservicedef_id: a.current_agreement_id,
    service_instance_path: [[{ url, org, version }]],
    agreement_less: false,
    max_retries: 0,
    max_retry_duration: 0,
    current_retry_count: 0,
    containers: containers.map(containerView),
  };
}

/** Containers of an agreement as the engine lists them; none when the engine cannot be reached. */
async function containersOf(ctx: AgentContext, agreementId: string): Promise<ContainerInfo[]> {
  try {
    return (await ctx.protocol?.containersOf(agreementId)) ?? [];
  } catch (error) {
    ctx.log.warn('could not list containers', { agreement: agreementId, reason: (error as Error).message });
    return [];
  }
}

/** A dependency instance (docs/protocol.md#dependency-instances): keyed by its instance key, with the agreements that use it. */
function dependencyView(ctx: AgentContext, i: DependencyInstance, containers: ContainerInfo[]) {
  const users = usersOf(ctx.store, i.instance_key);
  return {
    ref_url: i.url,
    organization: i.org,
    version: i.version,
    arch: i.arch,
    instance_id: i.instance_key,
    archived: false,
    instance_creation_time: i.instance_creation_time,
    execution_start_time: i.execution_start_time,
    cleanup_start_time: 0,
    retry_start_time: 0,
    execution_failure_code: 0,
    execution_failure_desc: '',
    associated_agreements: users,
    microservicedef_id: i.instance_key,
    service_instance_path: i.parents.map((parent) => [
      ...pathTo(ctx, parent),
      { url: i.url, org: i.org, version: i.version },
    ]),
    agreement_less: false,
    max_retries: 0,
    max_retry_duration: 0,
    current_retry_count: 0,
    containers: containers.map(containerView),
  };
}

/** The chain of services from the top-level one down to `key` (an agreement id or instance key). */
function pathTo(ctx: AgentContext, key: string, depth = 0): { url: string; org: string; version: string }[] {
  const instance = depth < 16 ? findInstance(ctx.store, key) : undefined;
  if (instance) {
    const parent = instance.parents[0];
    const above = parent ? pathTo(ctx, parent, depth + 1) : [];
    return [...above, { url: instance.url, org: instance.org, version: instance.version }];
  }
  const agreement = (loadAgreements(ctx.store) as ProtocolAgreement[]).find(
    (a) => a.current_agreement_id === key,
  );
  if (!agreement) return [];
  const { url, org, version } = agreement.workload_to_run;
  return [{ url, org, version }];
}

export async function workloadViews(ctx: AgentContext) {
  const accepted = (loadAgreements(ctx.store) as ProtocolAgreement[]).filter(
    (a) => a.agreement_accepted_time > 0,
  );
  const active = accepted.filter((a) => !isArchived(a));
  const archived = accepted.filter((a) => isArchived(a));
  const running = await Promise.all(
    active.map(async (a) => instanceView(a, await containersOf(ctx, a.current_agreement_id))),
  );
  const dependencies = await Promise.all(
    loadInstances(ctx.store).map(async (i) =>
      dependencyView(ctx, i, await containersOf(ctx, i.instance_key)),
    ),
  );
  return {
    definitions: {
      active: active.map((a) => definitionView(ctx, a)),
      archived: archived.map((a) => definitionView(ctx, a)),
    },
    instances: { active: [...running, ...dependencies], archived: archived.map((a) => instanceView(a, [])) },
  };
}
