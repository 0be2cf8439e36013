import { BUILT_IN_AGBOT } from '#lib/agbot/built-in';
import type { AgbotAgreement, PolicyStatus } from '#lib/agbot-store/contract';
import { statusView } from '#tables/agbot-state/policy-status';

const orgOf = (policy: string) => policy.slice(0, policy.indexOf('/'));

/**
 * The in-stack agbot's statuses and live agreements of `org`'s policies (and pattern services):
 * one Query of its state partition, the other orgs' items dropped here.
 */
export async function orgStatusView(
  org: string,
): Promise<{ statuses: PolicyStatus[]; live: AgbotAgreement[] }> {
  const { statuses, live } = await statusView(BUILT_IN_AGBOT);
  return {
    statuses: statuses.filter((s) => orgOf(s.policy) === org),
    live: live.filter((a) => orgOf(a.policy) === org),
  };
}
