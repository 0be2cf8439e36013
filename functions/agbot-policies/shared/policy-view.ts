import type * as z from 'zod';
import type { AgbotPolicyRecord } from '#tables/agbot/policy-records';
import type { agbotBusinessPol, getAgbotBusinessPolsResponse } from './schemas.ts';

/** A served policy as upstream returns it (the map key is its id). */
export const policyView = (record: AgbotPolicyRecord): z.infer<typeof agbotBusinessPol> => ({
  businessPolOrgid: record.businessPolOrgid,
  businessPol: record.businessPol,
  nodeOrgid: record.nodeOrgid,
  lastUpdated: record.lastUpdated,
});

export const policiesBody = (records: AgbotPolicyRecord[]): z.infer<typeof getAgbotBusinessPolsResponse> => ({
  businessPols: Object.fromEntries(records.map((record) => [record.policyId, policyView(record)])),
});
