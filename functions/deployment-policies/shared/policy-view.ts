import type { DeploymentPolicyRecord } from '#tables/deployment-policy/records';
import type { PolicyBody } from './schemas.ts';

/** Upstream's default node health for a policy's service on POST and PUT. */
const NODE_HEALTH = { missing_heartbeat_interval: 1800, check_agreement_status: 1800 };

/** Drops `null` members (upstream's absent Options) from stored objects. */
const compact = <T extends Record<string, unknown>>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined)) as T;

/** The policy's service as stored: node health and namespace defaulted as upstream does. */
export const storedPolicyService = (service: NonNullable<PolicyBody['service']>, fillDefaults: boolean) => ({
  name: service.name,
  org: service.org,
  arch: service.arch,
  serviceVersions: service.serviceVersions.map((v) => compact(v)),
  nodeHealth: service.nodeHealth ?? (fillDefaults ? NODE_HEALTH : {}),
  clusterNamespace: service.clusterNamespace ?? '',
});

/** The record a POST or PUT stores (description defaults to the label). */
export function storedPolicy(
  org: string,
  name: string,
  owner: string,
  body: PolicyBody,
  times: { created: string; lastUpdated: string },
): DeploymentPolicyRecord {
  return {
    org,
    name,
    owner,
    label: body.label,
    description: body.description ?? body.label,
    service: storedPolicyService(body.service, true),
    properties: (body.properties ?? []).map((p) => compact(p)),
    constraints: body.constraints ?? [],
    userInput: (body.userInput ?? []).map((u) => compact(u)),
    secretBinding: (body.secretBinding ?? []).map((b) => compact(b)),
    ...times,
  };
}

/** One policy as upstream answers it (no org or name inside: they are the map key). */
export const policyView = (record: DeploymentPolicyRecord) => ({
  owner: record.owner,
  label: record.label,
  description: record.description,
  service: record.service,
  properties: record.properties,
  constraints: record.constraints,
  userInput: record.userInput,
  secretBinding: record.secretBinding,
  created: record.created,
  lastUpdated: record.lastUpdated,
});

/** `{"businessPolicy": {"<org>/<name>": …}, "lastIndex": 0}` (upstream's singular key). */
export const policiesBody = (records: DeploymentPolicyRecord[]) => ({
  businessPolicy: Object.fromEntries(records.map((r) => [`${r.org}/${r.name}`, policyView(r)])),
  lastIndex: 0,
});

/** `?attribute=`: upstream's names, case-insensitive; the value as text. */
export function policyAttribute(record: DeploymentPolicyRecord, name: string): string | undefined {
  const view: Record<string, unknown> = policyView(record);
  const key = Object.keys(view).find((k) => k.toLowerCase() === name.toLowerCase());
  if (key === undefined) return undefined;
  const value = view[key];
  return typeof value === 'string' ? value : JSON.stringify(value);
}
