import type { AgbotPolicyRecord } from '#tables/agbot-policy-records';

/** A served policy as upstream returns it (the map key is its id). */
export const policyView = (record: AgbotPolicyRecord) => ({
  businessPolOrgid: record.businessPolOrgid,
  businessPol: record.businessPol,
  nodeOrgid: record.nodeOrgid,
  lastUpdated: record.lastUpdated,
});

export const policiesBody = (records: AgbotPolicyRecord[]) => ({
  businessPols: Object.fromEntries(records.map((record) => [record.policyId, policyView(record)])),
});
