/**
 * An agreement's service dependencies on the node (docs/protocol.md#running-the-workload step 2, docs/protocol.md#containers-networks-and-labels, #health-and-retries): each
 * `requiredServices` entry, depth first, resolved from the Exchange to the highest version in its
 * range for the node arch, its deployment signature checked with the trusted keys, and started
 * (dependencies before the services that need them) or, unless the service is `sharable:
 * multiple`, a running instance of the same org/url/version reused. Which agreements use which
 * instance is kept in the store; an instance goes when its last agreement ends.
 */

import { DependencyError, type ResolvedDependency, resolveDependencies } from '#lib/protocol/dependencies';
import { parseDeployment } from '#lib/protocol/deployment';
import { verifyDeployment } from '#lib/protocol/deployment-signature';
import { REASON } from '#lib/protocol/reason-codes';
import { credentials, loadNode } from '../node/record.ts';
import {
  addUser,
  type DependencyInstance,
  deleteInstance,
  findInstance,
  loadInstances,
  releaseAgreement,
  saveInstance,
  shareableInstances,
  unusedInstances,
  usersOf,
} from '../services/dependency-store.ts';
import type { EnvironmentSources } from '../workloads/environment.ts';
import { instanceKey } from '../workloads/instance-key.ts';
import { type ServiceDefinition, serviceDefinitions } from './exchange-calls.ts';
import type { Protocol } from './protocol.ts';
import { nowSeconds, type ProtocolAgreement } from './records.ts';
import { trustedKeys } from './trusted-keys.ts';

/** A dependency could not be started; `reason` is the agreement's cancel code. */
export class DependencyStartError extends Error {
  constructor(
    message: string,
    readonly reason: number,
  ) {
    super(message);
    this.name = 'DependencyStartError';
  }
}

/** What a dependency's containers get, like the top-level service's, minus its own user input. */
export interface DependencyEnvironment {
  base: Omit<EnvironmentSources, 'userInputs' | 'deploymentEnvironment'>;
  /** The user-input layers for one dependency (node's, deployment policy's, its defaults). */
  userInputs(dependency: ResolvedDependency<ServiceDefinition>): EnvironmentSources['userInputs'];
  nodeMemoryMb: number;
  allowPrivileged: boolean;
}

/**
 * Resolves and starts (or reuses) every dependency of the agreement; returns the link networks the
 * top-level containers join. No dependencies (or none recorded): nothing to do, no Exchange call.
 */
export async function startDependencies(
  p: Protocol,
  agreement: ProtocolAgreement,
  env: DependencyEnvironment,
): Promise<string[]> {
  const required = agreement.service_record?.requiredServices ?? [];
  if (required.length === 0) return [];
  const node = loadNode(p.ctx.store);
  if (!node) throw new Error('the node is not registered');
  const creds = credentials(node);
  const top = agreement.workload_to_run;
  let tree: ResolvedDependency<ServiceDefinition>[];
  try {
    tree = await resolveDependencies(
      required,
      p.ctx.host.arch,
      (org, url) => serviceDefinitions(p.ctx, creds, org, url),
      [`${top.org}/${top.url}`],
    );
  } catch (error) {
    if (error instanceof DependencyError)
      throw new DependencyStartError(error.message, REASON.dependentDowngrade);
    throw error;
  }
  const id = agreement.current_agreement_id;
  p.ctx.events.add(
    'info',
    'start_dependent_service',
    `Start dependent services for ${top.org}/${top.url}.`,
    'agreement',
    { agreement_id: id },
  );
  return p.dependencyLock.run(async () => {
    const links: string[] = [];
    for (const dependency of tree) links.push((await acquire(p, dependency, id, id, env)).network);
    return links;
  });
}

/** One dependency for `parentKey`: reused or started, then linked to it by a network. */
async function acquire(
  p: Protocol,
  dependency: ResolvedDependency<ServiceDefinition>,
  parentKey: string,
  agreementId: string,
  env: DependencyEnvironment,
): Promise<{ key: string; network: string }> {
  const { store } = p.ctx;
  const def = dependency.definition;
  const reusable =
    def.sharable === 'multiple'
      ? undefined
      : await runningShared(p, dependency.org, dependency.url, dependency.version);
  const instance = reusable ?? (await startInstance(p, dependency, parentKey, agreementId, env));
  if (reusable) {
    store.transaction(() => {
      for (const key of subtree(p, reusable.instance_key)) addUser(store, key, agreementId);
      if (!reusable.parents.includes(parentKey))
        saveInstance(store, { ...reusable, parents: [...reusable.parents, parentKey] });
    });
  }
  const deployment = parseDeployment(instance.deployment);
  const names = Object.entries(deployment.services).flatMap(([name, s]) =>
    s.network === 'host' ? [] : [name],
  );
  return {
    key: instance.instance_key,
    network: await p.runner.link(instance.instance_key, parentKey, names),
  };
}

/** A running, shareable instance of org/url/version, if any. */
async function runningShared(
  p: Protocol,
  org: string,
  url: string,
  version: string,
): Promise<DependencyInstance | undefined> {
  for (const candidate of shareableInstances(p.ctx.store, org, url, version)) {
    if (candidate.execution_start_time === 0) continue;
    const health = await p.runner.health(candidate.instance_key, parseDeployment(candidate.deployment));
    if (health === 'running') return candidate;
  }
  return undefined;
}

/** The instance and every instance under it (its dependencies, theirs...). */
function subtree(p: Protocol, key: string, seen = new Set<string>()): string[] {
  if (seen.has(key)) return [];
  seen.add(key);
  const instance = findInstance(p.ctx.store, key);
  return [key, ...(instance?.requires ?? []).flatMap((child) => subtree(p, child, seen))];
}

async function startInstance(
  p: Protocol,
  dependency: ResolvedDependency<ServiceDefinition>,
  parentKey: string,
  agreementId: string,
  env: DependencyEnvironment,
): Promise<DependencyInstance> {
  const { ctx } = p;
  const def = dependency.definition;
  const name = `${dependency.org}/${dependency.url}`;
  const fail = (why: string, reason: number = REASON.dependentDowngrade): never => {
    ctx.events.add(
      'error',
      'error_start_dependent_service',
      `Error starting dependent service ${name} version ${dependency.version}: ${why}`,
      'agreement',
      { agreement_id: agreementId },
    );
    throw new DependencyStartError(`dependent service ${name}: ${why}`, reason);
  };
  if (!def.deployment) fail('the service has no deployment for a device node');
  if (!verifyDeployment(def.deployment, def.deploymentSignature, trustedKeys(p.trust)))
    fail('the deployment signature is not verified by any trusted key');
  let deployment: ReturnType<typeof parseDeployment>;
  try {
    deployment = parseDeployment(def.deployment);
  } catch (error) {
    return fail((error as Error).message);
  }
  const key = instanceKey(dependency.org, dependency.url, dependency.version);
  const instance: DependencyInstance = {
    instance_key: key,
    org: dependency.org,
    url: dependency.url,
    version: dependency.version,
    arch: dependency.arch,
    sharable: def.sharable,
    deployment: def.deployment,
    requires: [],
    parents: [parentKey],
    instance_creation_time: nowSeconds(ctx.now),
    execution_start_time: 0,
  };
  // Recorded before anything starts, so a cancel (or a restart) finds what to remove.
  ctx.store.transaction(() => {
    saveInstance(ctx.store, instance);
    addUser(ctx.store, key, agreementId);
  });
  const links: string[] = [];
  for (const child of dependency.requires) {
    const acquired = await acquire(p, child, key, agreementId, env);
    links.push(acquired.network);
    instance.requires.push(acquired.key);
  }
  saveInstance(ctx.store, instance);
  p.imageFailed.delete(key);
  try {
    await p.runner.start({
      agreementId: key,
      deployment,
      secrets: {},
      environment: { ...env.base, userInputs: env.userInputs(dependency) },
      nodeMemoryMb: env.nodeMemoryMb,
      allowPrivileged: env.allowPrivileged,
      infrastructure: true,
      links,
    });
  } catch (error) {
    const imageFailed = p.imageFailed.delete(key);
    return fail(
      (error as Error).message,
      imageFailed ? REASON.dependentImageFetchFailed : REASON.dependentDowngrade,
    );
  }
  const started = { ...instance, execution_start_time: nowSeconds(ctx.now) };
  saveInstance(ctx.store, started);
  ctx.events.add(
    'info',
    'complete_dependent_service',
    `Service containers for ${name} started.`,
    'agreement',
    { agreement_id: agreementId },
  );
  return started;
}

/**
 * The agreement no longer uses its dependencies: every instance no agreement uses now is removed
 * (containers, its own and its link networks). An engine that does not answer leaves the record,
 * and `removeUnused` tries again later.
 */
export function releaseDependencies(p: Protocol, agreementId: string): Promise<void> {
  return p.dependencyLock.run(async () => {
    const unused = releaseAgreement(p.ctx.store, agreementId);
    await removeInstances(p, unused);
  });
}

/** Instances left without an agreement (a removal cut short): removed now. */
export function removeUnused(p: Protocol): Promise<void> {
  return p.dependencyLock.run(async () => removeInstances(p, unusedInstances(p.ctx.store)));
}

async function removeInstances(p: Protocol, instances: DependencyInstance[]): Promise<void> {
  for (const instance of instances) {
    await p.runner.stop(instance.instance_key);
    deleteInstance(p.ctx.store, instance.instance_key);
    p.ctx.log.info('dependent service removed', { instance: instance.instance_key });
  }
}

/**
 * The container check for dependencies (docs/protocol.md#health-and-retries): a running instance
 * with fewer running containers than services (`looping` ones not counted) cancels every agreement
 * using it with 108. Upstream first retries the instance; this agent cancels at once and the
 * agbot forms new agreements (docs/compatibility.md).
 */
export async function checkDependencies(
  p: Protocol,
  looping: ReadonlySet<string>,
  cancel: (agreementId: string, reason: number) => void,
): Promise<void> {
  for (const instance of loadInstances(p.ctx.store)) {
    if (instance.execution_start_time === 0) continue;
    const users = usersOf(p.ctx.store, instance.instance_key);
    if (users.length === 0) continue;
    const health = await p.runner.health(
      instance.instance_key,
      parseDeployment(instance.deployment),
      looping,
    );
    if (health === 'running') continue;
    for (const agreementId of users) {
      p.ctx.events.add(
        'error',
        'dependent_service_failed',
        `Dependent service containers for ${instance.org}/${instance.url} are not running.`,
        'agreement',
        { agreement_id: agreementId },
      );
      cancel(agreementId, REASON.dependentServiceFailed);
    }
  }
}
