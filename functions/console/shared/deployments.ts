import { orgStatusView } from '#functions/agbot-status/shared/view';
import type { AgbotAgreement, PolicyStatus } from '#lib/agbot-store/contract';
import {
  type NodeOrgFilter,
  type PolicyReport,
  policyReport,
  SKIPPED_KEPT,
} from '#lib/agbot-store/policy-status';
import { deploymentPolicyKeys } from '#tables/deployment-policy/keys';
import { indexNamesAfter } from '#tables/kernel/index-names';
import { patternKeys } from '#tables/pattern/keys';
import { rolloutWithStatuses } from '#tables/rollout/records';
import type { DeploymentRow, DeploymentsQuery } from './deployment-schemas.ts';

type After = DeploymentsQuery['after'];

/**
 * One page of the org's deployments: its deployment policies by name, then its patterns by name
 * (at most two gsi1 Queries of `limit` + 1 names), the in-stack agbot's statuses and live
 * agreements of the org (one paged Query of its state, as GET .../agbotstatus/policies/{p}), and
 * one Query of each listed policy's partition for its rollout. tables/README.md, pattern 117.
 */
export async function deploymentsPage(
  org: string,
  after: After,
  limit: number,
  visible: NodeOrgFilter,
): Promise<{ rows: DeploymentRow[]; next?: string }> {
  const policies =
    after?.kind === 'pattern'
      ? { names: [], more: false }
      : await indexNamesAfter(deploymentPolicyKeys.orgIndex(org), after?.name, limit);
  const patterns = policies.more
    ? { names: [], more: true }
    : await indexNamesAfter(
        patternKeys.orgIndex(org),
        after?.kind === 'pattern' ? after.name : undefined,
        limit - policies.names.length,
      );
  const [view, rollouts] = await Promise.all([
    orgStatusView(org),
    Promise.all(policies.names.map((name) => rolloutWithStatuses(org, name))),
  ]);
  const byPattern = servicesByPattern(view);
  const rows: DeploymentRow[] = [
    ...policies.names.map((name, i) => {
      const { rollout, statuses } = rollouts[i] ?? { statuses: [] };
      const full = `${org}/${name}`;
      const row = combine('policy', name, [full], view, visible);
      return rollout
        ? { ...row, rollout: { control: rollout.control, lastUpdated: rollout.lastUpdated, statuses } }
        : row;
    }),
    ...patterns.names.map((name) =>
      combine('pattern', name, [...(byPattern.get(`${org}/${name}`) ?? [])].sort(), view, visible),
    ),
  ];
  const lastPolicy = policies.names.at(-1) ?? after?.name;
  const lastPattern = patterns.names.at(-1);
  if (policies.more) return { rows, next: `policy/${lastPolicy}` };
  if (!patterns.more) return { rows };
  return { rows, next: lastPattern ? `pattern/${lastPattern}` : `policy/${lastPolicy}` };
}

/** Pattern (`org/name`) → the agbot's status names of its services (statuses and live agreements). */
function servicesByPattern(view: {
  statuses: PolicyStatus[];
  live: AgbotAgreement[];
}): Map<string, Set<string>> {
  const byPattern = new Map<string, Set<string>>();
  for (const { policy, pattern } of [...view.statuses, ...view.live])
    if (pattern !== undefined) byPattern.set(pattern, (byPattern.get(pattern) ?? new Set()).add(policy));
  return byPattern;
}

/** The reports of `served` summed into one row (a pattern's services; a policy's one name). */
function combine(
  kind: 'policy' | 'pattern',
  name: string,
  served: string[],
  view: { statuses: PolicyStatus[]; live: AgbotAgreement[] },
  visible: NodeOrgFilter,
): DeploymentRow {
  const reports = served
    .filter(
      (policy) =>
        view.statuses.some((s) => s.policy === policy) || view.live.some((a) => a.policy === policy),
    )
    .map((policy) =>
      policyReport(
        policy,
        view.statuses.find((s) => s.policy === policy),
        view.live,
        visible,
      ),
    );
  const sum = (key: 'matched' | 'proposed' | 'agreed' | 'running' | 'failing') =>
    reports.reduce((total, r) => total + r[key], 0);
  const searches = reports.flatMap((r) => (r.lastSearch ? [r.lastSearch] : []));
  const lastSearch = searches.sort((a, b) => b.at.localeCompare(a.at))[0];
  return {
    kind,
    name,
    served: reports.map((r: PolicyReport) => `${r.org}/${r.name}`),
    matched: sum('matched'),
    proposed: sum('proposed'),
    agreed: sum('agreed'),
    running: sum('running'),
    failing: sum('failing'),
    ...(lastSearch ? { lastSearch } : {}),
    skipped: reports
      .flatMap((r) => r.skipped)
      .sort((a, b) => b.since.localeCompare(a.since))
      .slice(0, SKIPPED_KEPT),
  };
}
