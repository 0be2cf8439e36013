/**
 * The agbot program's own state when it runs as functions of the stack (tables/agbot-state/): one
 * partition per agbot, apart from its Exchange record's (`AGBOT#…`), so the Exchange's queries and
 * cascades of that partition never meet it and deleting the record leaves it, as the standalone
 * agbot's SQLite file stays. A policy inside a key is JSON-quoted, since ids may hold `#`: the
 * closing quote ends it, so `REVISIT#"<policy>"#` is the prefix of that policy's items alone.
 */
export const agbotStateKeys = {
  partition: (org: string, id: string) => `AGBOTSTATE#${org}/${id}`,
  /** gsi1 partition listing every agbot's sealed key (gsi1sk `<org>/<id>`): key rotation finds them there. */
  sealedKeysIndex: 'AGBOTSTATEKEYS',
  messagingKey: (org: string, id: string) => ({ pk: `AGBOTSTATE#${org}/${id}`, sk: 'KEY' }),
  feedCursor: (org: string, id: string) => ({ pk: `AGBOTSTATE#${org}/${id}`, sk: 'CURSOR' }),
  liveAgreement: (org: string, id: string, agreementId: string) => ({
    pk: `AGBOTSTATE#${org}/${id}`,
    sk: `LIVE#${agreementId}`,
  }),
  /**
   * gsi1 keys of a live agreement: one partition per org of its policy (gsi1sk the agreement id),
   * so the Exchange's status and console routes read one org's live agreements, not every org's.
   */
  liveOfOrgIndex: (org: string, id: string, policyOrg: string) => `AGBOTLIVE#${org}/${id}#${policyOrg}`,
  archivedAgreement: (org: string, id: string, agreementId: string) => ({
    pk: `AGBOTSTATE#${org}/${id}`,
    sk: `ARCHIVED#${agreementId}`,
  }),
  /** Held by the one live agreement of a node under a policy (the restart rule, as a condition). */
  liveGuard: (org: string, id: string, policy: string, node: string) => ({
    pk: `AGBOTSTATE#${org}/${id}`,
    sk: `GUARD#${JSON.stringify(policy)}#${node}`,
  }),
  /** The ended agreements of a node under a policy, as a list (version fallback reads it). */
  endedAgreements: (org: string, id: string, policy: string, node: string) => ({
    pk: `AGBOTSTATE#${org}/${id}`,
    sk: `ENDED#${JSON.stringify(policy)}#${node}`,
  }),
  search: (org: string, id: string, policy: string) => ({
    pk: `AGBOTSTATE#${org}/${id}`,
    sk: `SEARCH#${policy}`,
  }),
  revisit: (org: string, id: string, policy: string, node: string) => ({
    pk: `AGBOTSTATE#${org}/${id}`,
    sk: `REVISIT#${JSON.stringify(policy)}#${node}`,
  }),
  /** What a served policy's searches saw (docs/agbot.md "Status"); sorts after `LIVE#`, so one Query reads both. */
  policyStatus: (org: string, id: string, policy: string) => ({
    pk: `AGBOTSTATE#${org}/${id}`,
    sk: `STATUS#${policy}`,
  }),
  /** A policy's staged rollout (docs/rollouts.md). */
  rollout: (org: string, id: string, policy: string) => ({
    pk: `AGBOTSTATE#${org}/${id}`,
    sk: `ROLLOUT#${policy}`,
  }),
  /** One targeted node of a policy's rollout. */
  rolloutNode: (org: string, id: string, policy: string, node: string) => ({
    pk: `AGBOTSTATE#${org}/${id}`,
    sk: `RNODE#${JSON.stringify(policy)}#${node}`,
  }),
  rolloutNodePrefix: (policy: string) => `RNODE#${JSON.stringify(policy)}#`,
  statusPrefix: 'STATUS#',
  /** The statuses of one org's policies and pattern services (`<org>/<name>`: the slash ends the org). */
  statusOfOrgPrefix: (policyOrg: string) => `STATUS#${policyOrg}/`,
  livePrefix: 'LIVE#',
  archivedPrefix: 'ARCHIVED#',
  revisitPrefix: (policy: string) => `REVISIT#${JSON.stringify(policy)}#`,
};
