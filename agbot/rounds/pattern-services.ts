/**
 * A served pattern as the agbot works with it (docs/protocol.md#searching-for-candidates): each of its services is one
 * internal policy named `<pattern>_<url with / → ->_<svcOrg>_<arch>` that carries the pattern's
 * id. That name (with the pattern's org) keys the agreement, the search state and the T&C
 * header, so a node has at most one agreement per pattern service. `agreementLess` services
 * get none (upstream runs them without an agreement; this agent does not, see docs/agbot.md).
 */

import { type PatternRecord, type PatternService, patternRecord } from '#lib/protocol/catalog-records';
import type { RoundContext } from './context.ts';
import { splitId } from './context.ts';
import { oneOf } from './wire.ts';

export interface PatternTarget {
  /** `<org>/<pattern>`. */
  patternId: string;
  /** `<pattern org>/<internal name>`: the agreement's `policy` and the T&C consumer name. */
  policyId: string;
  service: PatternService;
  pattern: PatternRecord;
}

export const internalName = (pattern: string, s: PatternService): string =>
  `${pattern}_${s.serviceUrl.replaceAll('/', '-')}_${s.serviceOrgid}_${s.serviceArch}`;

/** The pattern record; undefined when it is gone or malformed. */
export async function readPattern(ctx: RoundContext, patternId: string): Promise<PatternRecord | undefined> {
  const [org, name] = splitId(patternId);
  return oneOf(await ctx.exchange.pattern(org, name), 'patterns', patternId, patternRecord);
}

/** One target per service of the pattern that forms agreements and names a version. */
export function patternTargets(patternId: string, pattern: PatternRecord): PatternTarget[] {
  const [org, name] = splitId(patternId);
  return pattern.services
    .filter((s) => !s.agreementLess && s.serviceVersions.length > 0)
    .map((service) => ({ patternId, policyId: `${org}/${internalName(name, service)}`, service, pattern }));
}
