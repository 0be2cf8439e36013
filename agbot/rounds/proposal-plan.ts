/**
 * What the policy case (candidate.ts) and the pattern case (pattern-candidate.ts) share
 * (docs/protocol.md#compatibility-checks, #proposal-and-terms): the round's read cache, reading the chosen service version with its
 * deployment, then, once the case's own checks passed, complete user input, resolvable secret
 * bindings, resolvable dependencies (dependencies.ts), the bound secret values, and the T&C with
 * the proposal plan.
 */

import type { AgreementDetails } from '#lib/agbot-store/contract';
import type { RequiredService } from '#lib/protocol/dependencies';
import { requiredServicesOf } from '#lib/protocol/dependency-check';
import { type Deployment, parseDeployment } from '#lib/protocol/deployment';
import type { consumerPolicy } from '#lib/protocol/policy-compatibility';
import type { PolicyDocument } from '#lib/protocol/policy-document';
import { nodePolicyName, type Property, type UserInput } from '#lib/protocol/policy-document';
import type { SecretBinding } from '#lib/protocol/secret-binding';
import { resolveSecretBindings, secretsNamedBy } from '#lib/protocol/secret-binding-check';
import type { ServiceRef } from '#lib/protocol/service-match';
import { buildTerms } from '#lib/protocol/terms';
import { checkUserInput } from '#lib/protocol/user-input-check';
import type { SecretSource } from '../exchange.ts';
import type { RoundContext } from './context.ts';
import { checkDependencies } from './dependencies.ts';
import { nodeMaxHeartbeatS } from './node-heartbeat.ts';
import { secretCandidates, secretsWithValues } from './secret-values.ts';
import { type NodeRecord, type ServiceRecord, serviceRecord, servicesAnswer } from './wire.ts';

/** Reads shared by every node of a round (services, service policies), each made once. */
export type RoundCache = Map<string, Promise<unknown>>;

export const cached = <T>(cache: RoundCache, key: string, read: () => Promise<T>): Promise<T> => {
  let hit = cache.get(key) as Promise<T> | undefined;
  if (!hit) {
    hit = read();
    cache.set(key, hit);
  }
  return hit;
};

export interface ProposalPlan {
  node: { org: string; id: string; publicKey: string; maxHeartbeatS?: number };
  service: ServiceRef;
  terms: PolicyDocument;
  producerPolicy: PolicyDocument;
  secrets: AgreementDetails['secrets'];
}

export type Evaluation = { ok: true; plan: ProposalPlan } | { ok: false; reason: string };

/** The service definition for this version and arch: `org/<service id>` and the record. */
export async function readService(
  ctx: RoundContext,
  org: string,
  url: string,
  version: string,
  arch: string,
): Promise<{ id: string; record: ServiceRecord; requiredServices: RequiredService[] } | undefined> {
  const answer = servicesAnswer.safeParse(await ctx.exchange.services(org, { url, version, arch }));
  if (!answer.success) return undefined;
  for (const [id, value] of Object.entries(answer.data.services)) {
    const record = serviceRecord.safeParse(value);
    if (
      record.success &&
      record.data.url === url &&
      record.data.version === version &&
      record.data.arch === arch
    )
      return { id, record: record.data, requiredServices: requiredServicesOf(value) };
  }
  return undefined;
}

type ServiceDefinition = NonNullable<Awaited<ReturnType<typeof readService>>>;

/** The first version (given in priority order) whose checks pass, else the last reason. */
export async function firstPassing(
  versions: string[],
  check: (version: string) => Promise<Evaluation>,
): Promise<Evaluation> {
  let last = 'no service version';
  for (const version of versions) {
    const result = await check(version);
    if (result.ok) return result;
    last = result.reason;
  }
  return { ok: false, reason: last };
}

export type Deployable =
  | { ok: true; definition: ServiceDefinition; deployment: Deployment; service: ServiceRef }
  | { ok: false; reason: string };

/** The service version for `arch` (read once per round) with a deployment that parses. */
export async function readDeployable(
  ctx: RoundContext,
  cache: RoundCache,
  svc: { org: string; url: string; version: string; arch: string },
): Promise<Deployable> {
  const { org, url, version, arch } = svc;
  const definition = await cached(cache, `service ${org} ${url} ${version} ${arch}`, () =>
    readService(ctx, org, url, version, arch),
  );
  if (!definition) return { ok: false, reason: `service ${org}/${url} ${version} ${arch} not found` };
  if (!definition.record.deployment) return { ok: false, reason: 'the service has no deployment' };
  try {
    const deployment = parseDeployment(definition.record.deployment);
    return {
      ok: true,
      definition,
      deployment,
      service: { org, url, version, arch: definition.record.arch || arch },
    };
  } catch (error) {
    return { ok: false, reason: `the service deployment: ${(error as Error).message}` };
  }
}

export interface PlanInput {
  node: { org: string; id: string; record: NodeRecord };
  deployable: Extract<Deployable, { ok: true }>;
  /** `<org>/<policy>` or the pattern service's internal name: the T&C consumer name. */
  consumerName: string;
  patternId?: string;
  consumer: ReturnType<typeof consumerPolicy>;
  nodeHealth?: { missing_heartbeat_interval?: number; check_agreement_status?: number } | null;
  /** The deployment policy's or pattern's user input and secret bindings; it is what secrets are read for. */
  userInput: UserInput[];
  secretBinding: SecretBinding[];
  secretsSource: SecretSource;
  /** The node policy view sent as the producer policy. */
  producer: { properties: Property[]; constraints: string[] };
}

/** The checks both cases end with, then the T&C and the plan to propose. */
export async function completePlan(
  ctx: RoundContext,
  cache: RoundCache,
  input: PlanInput,
): Promise<Evaluation> {
  const { node, deployable, userInput, secretBinding } = input;
  const { definition, deployment, service } = deployable;
  const given = checkUserInput(service, definition.record.userInput, userInput, node.record.userInput);
  if (!given.ok) return given;
  const bound = resolveSecretBindings(service, secretsNamedBy(deployment), secretBinding);
  if (!bound.ok) return bound;
  const dependencies = await checkDependencies(
    ctx,
    (key, read) => cached(cache, key, read),
    { org: service.org, url: service.url, requiredServices: definition.requiredServices },
    node.record.arch,
    { policy: userInput, node: node.record.userInput },
    secretBinding,
  );
  if (!dependencies.ok) return dependencies;
  const secrets = (bound.bound ?? []).map((b) => ({
    serviceSecret: b.serviceSecret,
    candidates: secretCandidates(
      b.managerSecret,
      input.secretsSource,
      node,
      b.binding.enableNodeLevelSecrets,
    ),
    bindingIndex: secretBinding.indexOf(b.binding),
  }));
  const elsewhere = secrets.find((s) => s.candidates.length === 0);
  if (elsewhere)
    return { ok: false, reason: `secret ${elsewhere.serviceSecret} is bound to another node's secret` };
  const secretDetails = await secretsWithValues(ctx, input.secretsSource, secretBinding, secrets);
  if (!secretDetails) return { ok: false, reason: 'a bound secret cannot be read' };
  const producerName = nodePolicyName(`${node.org}/${node.id}`);
  const terms = buildTerms({
    producerPolicyName: producerName,
    consumerPolicyName: input.consumerName,
    ...(input.patternId ? { patternId: input.patternId } : {}),
    workload: {
      url: service.url,
      org: service.org,
      version: service.version,
      arch: service.arch,
      deployment: definition.record.deployment,
      deploymentSignature: definition.record.deploymentSignature,
    },
    ...input.consumer,
    ...(input.nodeHealth ? { nodeHealth: input.nodeHealth } : {}),
    userInput,
    secretBinding,
    secretDetails,
  });
  return {
    ok: true,
    plan: {
      node: {
        org: node.org,
        id: node.id,
        publicKey: node.record.publicKey,
        maxHeartbeatS: await nodeMaxHeartbeatS(ctx, cache, node.org, node.record),
      },
      service,
      terms,
      producerPolicy: { header: { name: producerName, version: '2.0' }, ...input.producer },
      secrets,
    },
  };
}
