/**
 * Starting an accepted agreement's service (docs/protocol.md#running-the-workload): the deployment from the proposal
 * (signature checked when the proposal came), the secrets from the agreement's files, the
 * environment in upstream's precedence. Its dependencies start first (dependencies.ts) and its
 * containers join their link networks. Runs in the background, never under the write lock; a
 * failure cancels the agreement (113 when the image could not be loaded, else 103; a dependency
 * that cannot start: 117 or 118), as upstream.
 */
import { readFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { parseDeployment } from '#lib/protocol/deployment';
import type { UserInput } from '#lib/protocol/policy-document';
import { nodeAllowsPrivilege } from '#lib/protocol/privileged';
import { REASON } from '#lib/protocol/reason-codes';
import { findFor } from '#lib/protocol/service-match';
import { loadPolicy, loadUserInput } from '../node/local.ts';
import { loadNode } from '../node/record.ts';
import type { InputValue } from '../workloads/environment.ts';
import type { WorkloadRequest } from '../workloads/runner.ts';
import type { SecretValue } from '../workloads/secret-files.ts';
import {
  type DependencyEnvironment,
  DependencyStartError,
  releaseDependencies,
  startDependencies,
} from './dependencies.ts';
import type { DeclaredInput } from './exchange-calls.ts';
import type { Protocol } from './protocol.ts';
import {
  agreementSource,
  findAgreement,
  nowSeconds,
  type ProtocolAgreement,
  termsOf,
  updateAgreement,
} from './records.ts';
import { startTermination } from './terminate.ts';

/** Starts the workload unless it is starting or started already; resolves when the attempt ended. */
export function startWorkload(p: Protocol, agreementId: string): Promise<void> {
  const running = p.starting.get(agreementId);
  if (running) return running;
  const work = start(p, agreementId).finally(() => p.starting.delete(agreementId));
  p.starting.set(agreementId, work);
  return work;
}

async function start(p: Protocol, agreementId: string): Promise<void> {
  const agreement = findAgreement(p.ctx.store, agreementId);
  if (!agreement || agreement.agreement_terminated_time > 0 || agreement.archived) return;
  // Started already: a replyack after the governance pass finalized, or a second finalisation
  // racing the first, must not remove and recreate the running containers.
  if (agreement.agreement_execution_start_time > 0) return;
  let request: WorkloadRequest;
  try {
    request = workloadRequest(p, agreement);
  } catch (error) {
    p.ctx.events.add(
      'error',
      'error_in_deployment_configuration',
      `Error in deployment configuration for ${agreement.workload_to_run.url}: ${(error as Error).message}`,
      'agreement',
      // The workload is named, as anax's agreement events do: the error is surfaced for it.
      agreementSource(agreement),
    );
    startTermination(p, agreementId, REASON.serviceTerminated);
    return;
  }
  p.imageFailed.delete(agreementId);
  try {
    // Leftovers of an attempt cut short (agent restart) would clash with the new containers.
    await p.runner.stop(agreementId);
    await releaseDependencies(p, agreementId);
  } catch {
    return; // no engine now: the governance pass tries again
  }
  let links: string[];
  try {
    links = await startDependencies(p, agreement, dependencyEnvironment(p, agreement, request));
  } catch (error) {
    if (!(error instanceof DependencyStartError)) {
      // The Exchange or the engine did not answer: the governance pass tries again (104 bounds it).
      p.ctx.log.warn('dependent services not started', {
        agreement: agreementId,
        reason: (error as Error).message,
      });
      return;
    }
    startTermination(p, agreementId, error.reason);
    return;
  }
  const current = findAgreement(p.ctx.store, agreementId);
  if (!current || current.agreement_terminated_time > 0) return;
  try {
    await p.runner.start({ ...request, links });
  } catch {
    const reason = p.imageFailed.has(agreementId) ? REASON.imageFetchFailed : REASON.serviceTerminated;
    startTermination(p, agreementId, reason);
    return;
  }
  updateAgreement(p.ctx.store, agreementId, (a) =>
    a.agreement_terminated_time > 0
      ? undefined
      : {
          agreement_execution_start_time: nowSeconds(p.ctx.now),
          current_deployment: Object.fromEntries(
            Object.entries(request.deployment.services).map(([name, s]) => [name, { image: s.image }]),
          ),
        },
  );
}

/** The environment of the agreement's dependencies: its own, without HZN_AGREEMENTID (docs/protocol.md#environment-variables). */
function dependencyEnvironment(
  p: Protocol,
  agreement: ProtocolAgreement,
  request: WorkloadRequest,
): DependencyEnvironment {
  const { agreementId: _none, ...platform } = request.environment.platform;
  const terms = termsOf(agreement);
  return {
    base: { node: request.environment.node, platform },
    userInputs: (d) => {
      const ref = { org: d.org, url: d.url, version: d.version, arch: d.arch };
      return [
        inputValues(findFor(loadUserInput(p.ctx.store) as UserInput[], ref)),
        inputValues(findFor(terms?.userInput, ref)),
        defaults(d.definition.userInput),
      ];
    },
    nodeMemoryMb: request.nodeMemoryMb,
    allowPrivileged: request.allowPrivileged,
  };
}

/** A service's declared defaults (the last user-input layer). */
const defaults = (declared: readonly DeclaredInput[] | undefined): Record<string, InputValue> =>
  Object.fromEntries(
    (declared ?? []).flatMap((d) =>
      d.defaultValue !== undefined && d.defaultValue !== '' ? [[d.name, d.defaultValue]] : [],
    ),
  );

function workloadRequest(p: Protocol, agreement: ProtocolAgreement): WorkloadRequest {
  const { ctx } = p;
  const terms = termsOf(agreement);
  const deploymentText = terms?.workloads?.[0]?.deployment;
  if (!terms || !deploymentText) throw new Error('the stored proposal has no deployment');
  const deployment = parseDeployment(deploymentText);
  const node = loadNode(ctx.store);
  if (!node) throw new Error('the node is not registered');
  const policy = loadPolicy(ctx.store);
  const allowPrivileged = nodeAllowsPrivilege(policy?.properties ?? []);
  const service = agreement.workload_to_run;
  const ref = { org: service.org, url: service.url, version: service.version, arch: service.arch };
  return {
    agreementId: agreement.current_agreement_id,
    deployment,
    secrets: readSecrets(p, agreement),
    environment: {
      node: {
        cpus: ctx.host.cpu,
        memoryMb: ctx.host.memoryMb,
        arch: ctx.host.arch,
        hardwareId: ctx.host.hardwareId,
        hostIps: hostIps(),
        allowPrivileged,
      },
      platform: {
        agreementId: agreement.current_agreement_id,
        nodeId: node.id,
        org: node.organization,
        pattern: node.pattern,
        exchangeUrl: ctx.config.exchangeUrl,
      },
      userInputs: [
        inputValues(findFor(loadUserInput(ctx.store) as UserInput[], ref)),
        inputValues(findFor(terms.userInput, ref)),
        defaults(agreement.declared_inputs),
      ],
    },
    nodeMemoryMb: ctx.host.memoryMb,
    allowPrivileged,
  };
}

/** The agreement's secrets as written when it was accepted (or last updated). */
function readSecrets(p: Protocol, agreement: ProtocolAgreement): Record<string, SecretValue> {
  const directory = p.secretFiles.directoryOf(agreement.current_agreement_id);
  const secrets: Record<string, SecretValue> = {};
  for (const name of agreement.secret_names ?? []) {
    const value = JSON.parse(readFileSync(join(directory, name), 'utf8')) as SecretValue;
    secrets[name] = { key: value.key, value: value.value };
  }
  return secrets;
}

function inputValues(entry: UserInput | undefined): Record<string, InputValue> {
  const values: Record<string, InputValue> = {};
  for (const input of entry?.inputs ?? []) {
    const v = input.value;
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') values[input.name] = v;
    else if (Array.isArray(v) && v.every((x) => typeof x === 'string')) values[input.name] = v;
  }
  return values;
}

/** IPv4 addresses of the interfaces that are up (`HZN_HOST_IPS`). */
function hostIps(): string[] {
  return Object.values(networkInterfaces())
    .flat()
    .flatMap((i) => (i && i.family === 'IPv4' ? [i.address] : []));
}
