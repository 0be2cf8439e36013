import { BUILT_IN_AGBOT } from '#lib/agbot/built-in';
import type { AgbotAgreement, PolicyStatus } from '#lib/agbot-store/contract';
import { orgStatusView as agbotOrgStatusView } from '#tables/agbot-state/policy-status';

/**
 * The in-stack agbot's statuses and live agreements of `org`'s policies (and pattern services):
 * two Queries of that org's items alone (tables/README.md, pattern 117), whatever the hub holds.
 */
export const orgStatusView = (org: string): Promise<{ statuses: PolicyStatus[]; live: AgbotAgreement[] }> =>
  agbotOrgStatusView(BUILT_IN_AGBOT, org);
