/**
 * The agbot's checks of one node against one pattern service (docs/protocol.md#compatibility-checks, pattern case) and
 * the T&C they lead to (docs/protocol.md#proposal-and-terms): the node is registered with this pattern and has a key, the
 * service's arch, the first version by priority that resolves in the Exchange, privilege only
 * when the node policy allows it (a pattern node may have no policy: then not allowed), complete
 * user input (pattern ⊕ node) and readable values for the pattern's secret bindings. There is no
 * policy-compatibility check: a pattern node agrees to its pattern, not to constraints.
 */

import { archMatches, isAnyArch } from '#lib/protocol/arch';
import { consumerPolicy, deploymentView } from '#lib/protocol/policy-compatibility';
import { hostAccessOf, nodeAllowsPrivilege, privilegeRefusal } from '#lib/protocol/privileged';
import { secretSource } from '../exchange.ts';
import { versionsToOffer } from './candidate.ts';
import { type RoundContext, splitId } from './context.ts';
import type { PatternTarget } from './pattern-services.ts';
import {
  completePlan,
  type Evaluation,
  firstPassing,
  type RoundCache,
  readDeployable,
} from './proposal-plan.ts';
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
  // Version fallback as for a policy: the node's history under this pattern service.
  const versions = await versionsToOffer(ctx, target.policyId, target.service, nodeOrg, nodeId);
  return firstPassing(versions, (version) =>
    checkVersion(ctx, cache, target, nodeOrg, nodeId, node, version),
  );
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
  const deployable = await readDeployable(ctx, cache, { org: svcOrg, url, version, arch });
  if (!deployable.ok) return deployable;
  const hostAccess = hostAccessOf(deployable.deployment)[0];
  const privileged = hostAccess !== undefined;
  // The node policy is read only when it decides something: a privileged service.
  const view = privileged ? await nodePolicyView(ctx, nodeOrg, nodeId) : undefined;
  if (hostAccess && !(view && nodeAllowsPrivilege(view.properties)))
    return { ok: false, reason: privilegeRefusal(hostAccess) };
  const { pattern, patternId } = target;
  return completePlan(ctx, cache, {
    node: { org: nodeOrg, id: nodeId, record: node },
    deployable,
    consumerName: target.policyId,
    patternId,
    // The consumer side is the service's built-ins only (no deployment or service policy).
    consumer: consumerPolicy({}, undefined, deployable.service, privileged),
    nodeHealth: target.service.nodeHealth,
    userInput: pattern.userInput,
    secretBinding: pattern.secretBinding,
    secretsSource: secretSource('pattern', ...splitId(patternId), nodeOrg),
    producer: view ?? { properties: [], constraints: [] },
  });
}

/** The node policy's deployment view, or undefined when the node has none. */
async function nodePolicyView(ctx: RoundContext, org: string, id: string) {
  const policy = nodePolicy.safeParse(await ctx.exchange.nodePolicy(org, id));
  return policy.success ? deploymentView(policy.data) : undefined;
}
