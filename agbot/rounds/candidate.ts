/**
 * The agbot's checks of one node against one deployment policy (docs/protocol.md#compatibility-checks, policy case) and
 * the T&C they lead to (docs/protocol.md#proposal-and-terms): the node policy (deployment view) against the consumer side
 * (deployment policy ⊕ service policy ⊕ built-ins) both ways, the service's arch and versions in
 * priority order, then what both cases share (proposal-plan.ts: user input, secret bindings,
 * dependencies, secret values, the T&C). Every rule is lib/protocol's, shared with the node agent;
 * this file only gathers the inputs.
 */

import { archMatches, isAnyArch } from '#lib/protocol/arch';
import { versionsByPriority } from '#lib/protocol/catalog-records';
import type { Check } from '#lib/protocol/constraint-eval';
import { parseDeployment } from '#lib/protocol/deployment';
import { compatible, consumerPolicy, deploymentView } from '#lib/protocol/policy-compatibility';
import { policyFit } from '#lib/protocol/policy-fit';
import { deploymentNeedsPrivilege } from '#lib/protocol/privileged';
import type { ServiceRef } from '#lib/protocol/service-match';
import { secretSource } from '../exchange.ts';
import type { RoundContext } from './context.ts';
import {
  cached,
  completePlan,
  type Evaluation,
  firstPassing,
  type RoundCache,
  readDeployable,
  readService,
} from './proposal-plan.ts';
import { hasRetrySettings, preferVersions } from './version-preference.ts';
import {
  type DeploymentPolicy,
  type NodePolicy,
  type NodeRecord,
  nodePolicy,
  nodeRecord,
  oneOf,
  servicePolicy,
} from './wire.ts';

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
  const versions = await versionsToOffer(
    ctx,
    `${policyId.org}/${policyId.name}`,
    policy.service,
    nodeOrg,
    nodeId,
  );
  return firstPassing(versions, (version) =>
    checkVersion(ctx, cache, policyId, policy, nodeOrg, nodeId, found, version),
  );
}

/**
 * The versions of a policy's (or a pattern service's) service by priority, less those the node's
 * history under that policy abandons (version fallback, version-preference.ts). The history is
 * read only when a version has retry settings.
 */
export async function versionsToOffer(
  ctx: RoundContext,
  policyName: string,
  service: Parameters<typeof versionsByPriority>[0],
  nodeOrg: string,
  nodeId: string,
): Promise<string[]> {
  const entries = service.serviceVersions;
  // Staged rollouts keep a new version from nodes not admitted to it yet (docs/rollouts.md).
  const pinned = (offered: string[]) =>
    ctx.rollouts
      ? ctx.rollouts.pin(policyName, `${nodeOrg}/${nodeId}`, offered, versionsByPriority(service))
      : offered;
  if (!hasRetrySettings(entries)) return pinned(versionsByPriority(service));
  const ended = await ctx.store.endedAgreements(nodeOrg, nodeId, policyName);
  const preference = preferVersions(entries, ended, ctx.now());
  for (const abandoned of preference.abandoned)
    ctx.log.info('version abandoned for the node', {
      node: `${nodeOrg}/${nodeId}`,
      policy: policyName,
      version: abandoned.version,
      why: `its workload failed ${abandoned.failures} time(s) within ${abandoned.withinS} s (retries ${abandoned.retries})`,
      offering: preference.versions[0],
    });
  return pinned(preference.versions);
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
  const deployable = await readDeployable(ctx, cache, { org: svcOrg, url, version, arch });
  if (!deployable.ok) return deployable;
  const { definition, deployment, service } = deployable;
  const serviceKey = definition.id;
  const svcPolicy = await cached(cache, `service policy ${serviceKey}`, async () => {
    const parsed = servicePolicy.safeParse(
      await ctx.exchange.servicePolicy(svcOrg, serviceKey.slice(svcOrg.length + 1)),
    );
    return parsed.success ? parsed.data : undefined;
  });
  // The same rules `hzn deploycheck policy` explains (lib/protocol/policy-fit.ts).
  const fit = policyFit({
    nodePolicy: nodePol,
    deploymentPolicy: policy,
    servicePolicy: svcPolicy,
    service,
    deployment,
  });
  if (!fit.ok) return fit;
  const { consumer, producer: view } = fit;
  return completePlan(ctx, cache, {
    node: { org: nodeOrg, id: nodeId, record: node },
    deployable,
    consumerName: `${policyId.org}/${policyId.name}`,
    consumer,
    nodeHealth: policy.service.nodeHealth,
    userInput: policy.userInput,
    secretBinding: policy.secretBinding,
    secretsSource: secretSource('policy', policyId.org, policyId.name, nodeOrg),
    producer: view,
  });
}

/** Re-checks a live agreement after a policy change (docs/protocol.md#policy-and-configuration-changes): still compatible, or the reason. */
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
