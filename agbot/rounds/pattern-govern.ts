/**
 * Governance of a pattern agreement (docs/protocol.md#policy-and-configuration-changes): the pattern deleted or no longer served,
 * or changed so that the agreement's service (org, url, arch) or its version is no longer in it
 * → cancel 204. A node now registered with another pattern → 204 as well (upstream leaves that to
 * the node's own cancel 121; the agbot also does it so the agreement goes even when the node
 * does not notice, see docs/agbot.md). Anything else keeps the agreement.
 */

import type { AgbotAgreement } from '#lib/agbot-store/contract';
import type { PatternRecord } from '#lib/protocol/catalog-records';
import type { Check } from '#lib/protocol/constraint-eval';
import type { RoundContext } from './context.ts';
import type { FeedSummary } from './feed.ts';
import { patternTargets, readPattern } from './pattern-services.ts';
import { nodeRecord, oneOf } from './wire.ts';

/** Patterns read during one governance pass (several agreements share one). */
export type PatternReads = Map<string, Promise<PatternRecord | undefined>>;

/** undefined = nothing changed that concerns it; else whether it still holds. */
export async function patternAgreementHolds(
  ctx: RoundContext,
  agreement: AgbotAgreement & { pattern: string },
  feed: FeedSummary,
  served: Map<string, string[]>,
  reads: PatternReads,
): Promise<Check | undefined> {
  const node = `${agreement.nodeOrg}/${agreement.nodeId}`;
  const patternChanged = feed.patterns.has(agreement.pattern);
  const unserved = !served.has(agreement.pattern);
  const nodeChanged = feed.nodes.has(node);
  if (!patternChanged && !unserved && !nodeChanged) return undefined;
  if (unserved) return { ok: false, reason: `pattern ${agreement.pattern} is no longer served` };
  let read = reads.get(agreement.pattern);
  if (!read) {
    read = readPattern(ctx, agreement.pattern);
    reads.set(agreement.pattern, read);
  }
  const pattern = await read;
  if (!pattern) return { ok: false, reason: `pattern ${agreement.pattern} is gone` };
  const target = patternTargets(agreement.pattern, pattern).find((t) => t.policyId === agreement.policy);
  if (!target) return { ok: false, reason: 'the service is no longer in the pattern' };
  if (!target.service.serviceVersions.some((v) => v.version === agreement.service.version))
    return { ok: false, reason: `version ${agreement.service.version} is no longer in the pattern` };
  if (nodeChanged) {
    const record = oneOf(
      await ctx.exchange.node(agreement.nodeOrg, agreement.nodeId),
      'nodes',
      node,
      nodeRecord,
    );
    if (record && record.pattern !== agreement.pattern)
      return { ok: false, reason: `the node now runs pattern "${record.pattern}"` };
  }
  return { ok: true };
}
