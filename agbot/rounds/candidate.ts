/**
 * The agbot's checks of one node against one deployment policy (reference §1.4, policy case) and
 * the T&C they lead to (§1.5): the node policy (deployment view) against the consumer side
 * (deployment policy ⊕ service policy ⊕ built-ins) both ways, the service's arch and versions in
 * priority order, its dependencies (dependencies.ts), complete user input, and resolvable secret
 * bindings with readable values. Every
 * rule is lib/protocol's, shared with the node agent; this file only gathers the inputs.
 */
import { parseDeployment } from '#agent/workloads/deployment';
import { archMatches, isAnyArch } from '#lib/protocol/arch';
import type { Check } from '#lib/protocol/constraint-eval';
import type { RequiredService } from '#lib/protocol/dependencies';
import { compatible, consumerPolicy, deploymentView } from '#lib/protocol/policy-compatibility';
import { nodePolicyName, type PolicyDocument } from '#lib/protocol/policy-document';
import { deploymentNeedsPrivilege } from '#lib/protocol/privileged';
import { resolveSecretBindings, secretsNamedBy } from '#lib/protocol/secret-binding-check';
import type { ServiceRef } from '#lib/protocol/service-match';
import { buildTerms } from '#lib/protocol/terms';
import { checkUserInput } from '#lib/protocol/user-input-check';
import type { AgreementDetails } from '../store.ts';
import type { RoundContext } from './context.ts';
import { checkDependencies, requiredServicesOf } from './dependencies.ts';
import { secretCandidates, secretsWithValues } from './secret-values.ts';
import {
  type DeploymentPolicy,
  type NodePolicy,
  type NodeRecord,
  nodePolicy,
  nodeRecord,
  oneOf,
  type ServiceRecord,
  servicePolicy,
  serviceRecord,
  servicesAnswer,
} from './wire.ts';

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

/** The node and its policy; undefined (skip silently, as upstream) when either is missing. */
export async function readNode(
  ctx: RoundContext,
  org: string,
  id: string,
): Promise<{ node: NodeRecord; policy: NodePolicy } | undefined> {
  const policy = nodePolicy.safeParse(await ctx.exchange.nodePolicy(org, id));
  if (!policy.success) return undefined;
  const node = oneOf(await ctx.exchange.node(org, id), 'nodes', `${org}/${id}`, nodeRecord);
  return node ? { node, policy: policy.data } : undefined;
}

/** The versions to try, highest priority (lowest priority_value) first, then as listed. */
const byPriority = (policy: DeploymentPolicy) =>
  policy.service.serviceVersions
    .map((v, index) => ({
      version: v.version,
      rank: v.priority?.priority_value ?? Number.MAX_SAFE_INTEGER,
      index,
    }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map((v) => v.version);

export async function evaluate(
  ctx: RoundContext,
  cache: RoundCache,
  policyId: { org: string; name: string },
  policy: DeploymentPolicy,
  nodeOrg: string,
  nodeId: string,
): Promise<Evaluation> {
  const found = await readNode(ctx, nodeOrg, nodeId);
  if (!found) return { ok: false, reason: 'the node or its policy is missing' };
  const { node } = found;
  if (!node.publicKey) return { ok: false, reason: 'the node has no public key' };
  if (node.pattern) return { ok: false, reason: 'the node runs a pattern' };
  let last = 'no service version';
  for (const version of byPriority(policy)) {
    const check = await checkVersion(ctx, cache, policyId, policy, nodeOrg, nodeId, found, version);
    if (check.ok) return check;
    last = check.reason;
  }
  return { ok: false, reason: last };
}

async function checkVersion(
  ctx: RoundContext,
  cache: RoundCache,
  policyId: { org: string; name: string },
  policy: DeploymentPolicy,
  nodeOrg: string,
  nodeId: string,
  { node, policy: nodePol }: { node: NodeRecord; policy: NodePolicy },
  version: string,
): Promise<Evaluation> {
  const wanted = policy.service.arch;
  if (!archMatches(wanted, node.arch))
    return { ok: false, reason: `service arch ${wanted} is not ${node.arch}` };
  const arch = isAnyArch(wanted) ? node.arch : wanted;
  const { org: svcOrg, name: url } = policy.service;
  const definition = await cached(cache, `service ${svcOrg} ${url} ${version} ${arch}`, () =>
    readService(ctx, svcOrg, url, version, arch),
  );
  if (!definition) return { ok: false, reason: `service ${svcOrg}/${url} ${version} ${arch} not found` };
  const { id: serviceKey, record } = definition;
  if (!record.deployment) return { ok: false, reason: 'the service has no deployment' };
  let deployment: ReturnType<typeof parseDeployment>;
  try {
    deployment = parseDeployment(record.deployment);
  } catch (error) {
    return { ok: false, reason: `the service deployment: ${(error as Error).message}` };
  }
  const service: ServiceRef = { org: svcOrg, url, version, arch: record.arch || arch };
  const dependencies = await checkDependencies(
    ctx,
    (key, read) => cached(cache, key, read),
    { org: svcOrg, url, requiredServices: definition.requiredServices },
    node.arch,
    { policy: policy.userInput, node: node.userInput },
    policy.secretBinding,
  );
  if (!dependencies.ok) return dependencies;
  const svcPolicy = await cached(cache, `service policy ${serviceKey}`, async () => {
    const parsed = servicePolicy.safeParse(
      await ctx.exchange.servicePolicy(svcOrg, serviceKey.slice(svcOrg.length + 1)),
    );
    return parsed.success ? parsed.data : undefined;
  });
  const consumer = consumerPolicy(policy, svcPolicy, service, deploymentNeedsPrivilege(deployment));
  const view = deploymentView(nodePol);
  const matched: Check = compatible(consumer, view);
  if (!matched.ok) return matched;
  const input = checkUserInput(service, record.userInput, policy.userInput, node.userInput);
  if (!input.ok) return input;
  const bound = resolveSecretBindings(service, secretsNamedBy(deployment), policy.secretBinding);
  if (!bound.ok) return bound;
  const secrets = (bound.bound ?? []).map((b) => ({
    serviceSecret: b.serviceSecret,
    candidates: secretCandidates(b.managerSecret, nodeId, b.binding.enableNodeLevelSecrets),
    bindingIndex: policy.secretBinding.indexOf(b.binding),
  }));
  const secretDetails = await secretsWithValues(ctx, policyId.org, policy.secretBinding, secrets);
  if (!secretDetails) return { ok: false, reason: 'a bound secret cannot be read' };
  const producerName = nodePolicyName(`${nodeOrg}/${nodeId}`);
  const terms = buildTerms({
    producerPolicyName: producerName,
    consumerPolicyName: `${policyId.org}/${policyId.name}`,
    workload: {
      url,
      org: svcOrg,
      version,
      arch: service.arch,
      deployment: record.deployment,
      deploymentSignature: record.deploymentSignature,
    },
    ...consumer,
    ...(policy.service.nodeHealth ? { nodeHealth: policy.service.nodeHealth } : {}),
    userInput: policy.userInput,
    secretBinding: policy.secretBinding,
    secretDetails,
  });
  return {
    ok: true,
    plan: {
      node: {
        org: nodeOrg,
        id: nodeId,
        publicKey: node.publicKey,
        maxHeartbeatS: node.heartbeatIntervals?.maxInterval,
      },
      service,
      terms,
      producerPolicy: { header: { name: producerName, version: '2.0' }, ...view },
      secrets,
    },
  };
}

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

/** Re-checks a live agreement after a policy change (§3.4): still compatible, or the reason. */
export async function stillCompatible(
  ctx: RoundContext,
  policy: DeploymentPolicy,
  agreement: { nodeOrg: string; nodeId: string; service: ServiceRef },
): Promise<Check> {
  const found = await readNode(ctx, agreement.nodeOrg, agreement.nodeId);
  if (!found) return { ok: false, reason: 'the node or its policy is gone' };
  const s = agreement.service;
  if (s.org !== policy.service.org || s.url !== policy.service.name)
    return { ok: false, reason: 'the policy names another service' };
  if (!policy.service.serviceVersions.some((v) => v.version === s.version))
    return { ok: false, reason: `version ${s.version} is no longer in the policy` };
  const definition = await readService(ctx, s.org, s.url, s.version, s.arch);
  if (!definition) return { ok: false, reason: 'the service is gone' };
  let privileged = false;
  try {
    privileged = deploymentNeedsPrivilege(parseDeployment(definition.record.deployment));
  } catch {
    return { ok: false, reason: 'the service deployment does not parse' };
  }
  const parsed = servicePolicy.safeParse(
    await ctx.exchange.servicePolicy(s.org, definition.id.slice(s.org.length + 1)),
  );
  const consumer = consumerPolicy(policy, parsed.success ? parsed.data : undefined, s, privileged);
  return compatible(consumer, deploymentView(found.policy));
}
