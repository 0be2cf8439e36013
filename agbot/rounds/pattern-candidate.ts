/**
 * The agbot's checks of one node against one pattern service (reference §1.4, pattern case) and
 * the T&C they lead to (§1.5): the node is registered with this pattern and has a key, the
 * service's arch, the first version by priority that resolves in the Exchange, privilege only
 * when the node policy allows it (a pattern node may have no policy: then not allowed), complete
 * user input (pattern ⊕ node) and readable values for the pattern's secret bindings. There is no
 * policy-compatibility check: a pattern node agrees to its pattern, not to constraints.
 */

import { parseDeployment } from '#agent/workloads/deployment';
import { archMatches, isAnyArch } from '#lib/protocol/arch';
import { versionsByPriority } from '#lib/protocol/catalog-records';
import { consumerPolicy, deploymentView } from '#lib/protocol/policy-compatibility';
import { nodePolicyName } from '#lib/protocol/policy-document';
import { deploymentNeedsPrivilege, nodeAllowsPrivilege } from '#lib/protocol/privileged';
import { resolveSecretBindings, secretsNamedBy } from '#lib/protocol/secret-binding-check';
import type { ServiceRef } from '#lib/protocol/service-match';
import { buildTerms } from '#lib/protocol/terms';
import { checkUserInput } from '#lib/protocol/user-input-check';
import { cached, type Evaluation, type RoundCache, readService } from './candidate.ts';
import type { RoundContext } from './context.ts';
import { checkDependencies } from './dependencies.ts';
import type { PatternTarget } from './pattern-services.ts';
import { secretCandidates, secretsWithValues } from './secret-values.ts';
import { type NodeRecord, nodePolicy, nodeRecord, oneOf } from './wire.ts';

export async function evaluatePattern(
  ctx: RoundContext,
  cache: RoundCache,
  target: PatternTarget,
  nodeOrg: string,
  nodeId: string,
): Promise<Evaluation> {
  const node = oneOf(await ctx.exchange.node(nodeOrg, nodeId), 'nodes', `${nodeOrg}/${nodeId}`, nodeRecord);
  if (!node) return { ok: false, reason: 'the node is missing' };
  if (!node.publicKey) return { ok: false, reason: 'the node has no public key' };
  if (node.pattern !== target.patternId)
    return { ok: false, reason: `the node runs pattern "${node.pattern}", not ${target.patternId}` };
  const wanted = target.service.serviceArch;
  if (!archMatches(wanted, node.arch))
    return { ok: false, reason: `service arch ${wanted} is not ${node.arch}` };
  let last = 'no service version';
  for (const version of versionsByPriority(target.service)) {
    const check = await checkVersion(ctx, cache, target, nodeOrg, nodeId, node, version);
    if (check.ok) return check;
    last = check.reason;
  }
  return { ok: false, reason: last };
}

async function checkVersion(
  ctx: RoundContext,
  cache: RoundCache,
  target: PatternTarget,
  nodeOrg: string,
  nodeId: string,
  node: NodeRecord,
  version: string,
): Promise<Evaluation> {
  const { serviceOrgid: svcOrg, serviceUrl: url, serviceArch } = target.service;
  const arch = isAnyArch(serviceArch) ? node.arch : serviceArch;
  const definition = await cached(cache, `service ${svcOrg} ${url} ${version} ${arch}`, () =>
    readService(ctx, svcOrg, url, version, arch),
  );
  if (!definition) return { ok: false, reason: `service ${svcOrg}/${url} ${version} ${arch} not found` };
  const { record } = definition;
  if (!record.deployment) return { ok: false, reason: 'the service has no deployment' };
  let deployment: ReturnType<typeof parseDeployment>;
  try {
    deployment = parseDeployment(record.deployment);
  } catch (error) {
    return { ok: false, reason: `the service deployment: ${(error as Error).message}` };
  }
  const service: ServiceRef = { org: svcOrg, url, version, arch: record.arch || arch };
  const privileged = deploymentNeedsPrivilege(deployment);
  // The node policy is read only when it decides something: a privileged service.
  const view = privileged ? await nodePolicyView(ctx, nodeOrg, nodeId) : undefined;
  if (privileged && !(view && nodeAllowsPrivilege(view.properties)))
    return { ok: false, reason: 'the service needs privileged mode, which the node policy does not allow' };
  const { pattern } = target;
  const input = checkUserInput(service, record.userInput, pattern.userInput, node.userInput);
  if (!input.ok) return input;
  const bound = resolveSecretBindings(service, secretsNamedBy(deployment), pattern.secretBinding);
  if (!bound.ok) return bound;
  const dependencies = await checkDependencies(
    ctx,
    (key, read) => cached(cache, key, read),
    { org: svcOrg, url, requiredServices: definition.requiredServices },
    node.arch,
    { policy: pattern.userInput, node: node.userInput },
    pattern.secretBinding,
  );
  if (!dependencies.ok) return dependencies;
  const secrets = (bound.bound ?? []).map((b) => ({
    serviceSecret: b.serviceSecret,
    candidates: secretCandidates(b.managerSecret, nodeId, b.binding.enableNodeLevelSecrets),
    bindingIndex: pattern.secretBinding.indexOf(b.binding),
  }));
  const patternOrg = target.patternId.slice(0, target.patternId.indexOf('/'));
  const secretDetails = await secretsWithValues(ctx, patternOrg, pattern.secretBinding, secrets);
  if (!secretDetails) return { ok: false, reason: 'a bound secret cannot be read' };
  const producerName = nodePolicyName(`${nodeOrg}/${nodeId}`);
  // The consumer side is the service's built-ins only (no deployment or service policy).
  const consumer = consumerPolicy({}, undefined, service, privileged);
  const nodeHealth = target.service.nodeHealth;
  const terms = buildTerms({
    producerPolicyName: producerName,
    consumerPolicyName: target.policyId,
    patternId: target.patternId,
    workload: {
      url,
      org: svcOrg,
      version,
      arch: service.arch,
      deployment: record.deployment,
      deploymentSignature: record.deploymentSignature,
    },
    ...consumer,
    ...(nodeHealth ? { nodeHealth } : {}),
    userInput: pattern.userInput,
    secretBinding: pattern.secretBinding,
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
      producerPolicy: {
        header: { name: producerName, version: '2.0' },
        ...(view ?? { properties: [], constraints: [] }),
      },
      secrets,
    },
  };
}

/** The node policy's deployment view, or undefined when the node has none. */
async function nodePolicyView(ctx: RoundContext, org: string, id: string) {
  const policy = nodePolicy.safeParse(await ctx.exchange.nodePolicy(org, id));
  return policy.success ? deploymentView(policy.data) : undefined;
}
