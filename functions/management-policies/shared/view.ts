import type { ManagementPolicyBody } from '#lib/nmp/policy-body';
import type { ManagementPolicyRecord } from '#tables/management-policy/records';

/** Drops `null` members (upstream's absent Options) from stored objects. */
const compact = <T extends Record<string, unknown>>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined)) as T;

/**
 * The record a POST or PUT stores: description defaults to the label, start to `now`, a negative
 * window is stored as 0 and a missing agentUpgradePolicy as `{manifest: "", allowDowngrade: false}`,
 * all as upstream does.
 */
export function storedPolicy(
  org: string,
  name: string,
  owner: string,
  body: ManagementPolicyBody,
  times: { created: string; lastUpdated: string },
): ManagementPolicyRecord {
  return {
    org,
    name,
    owner,
    label: body.label,
    description: body.description ?? body.label,
    constraints: body.constraints ?? [],
    properties: (body.properties ?? []).map((p) => compact(p)),
    patterns: body.patterns ?? [],
    enabled: body.enabled,
    start: body.start ?? 'now',
    startWindow: Math.max(0, body.startWindow ?? 0),
    allowDowngrade: body.agentUpgradePolicy?.allowDowngrade ?? false,
    manifest: body.agentUpgradePolicy?.manifest ?? '',
    ...times,
  };
}

/** One policy as upstream answers it (org and name are the map key). */
export const policyView = (r: ManagementPolicyRecord) => ({
  owner: r.owner,
  label: r.label,
  description: r.description,
  constraints: r.constraints,
  properties: r.properties,
  patterns: r.patterns,
  enabled: r.enabled,
  start: r.start,
  startWindow: r.startWindow,
  agentUpgradePolicy: { allowDowngrade: r.allowDowngrade, manifest: r.manifest },
  created: r.created,
  lastUpdated: r.lastUpdated,
});

/** `{"managementPolicy": {"<org>/<name>": …}, "lastIndex": 0}`, the single GET included. */
export const policiesBody = (records: ManagementPolicyRecord[]) => ({
  managementPolicy: Object.fromEntries(records.map((r) => [`${r.org}/${r.name}`, policyView(r)])),
  lastIndex: 0,
});

/** Upstream's `?attribute=` names (case-insensitive) and the value each answers, as text. */
const ATTRIBUTES: Record<string, (r: ManagementPolicyRecord) => unknown> = {
  allowdowngrade: (r) => r.allowDowngrade,
  constraints: (r) => r.constraints,
  created: (r) => r.created,
  description: (r) => r.description,
  enabled: (r) => r.enabled,
  label: (r) => r.label,
  lastupdated: (r) => r.lastUpdated,
  manifest: (r) => r.manifest,
  owner: (r) => r.owner,
  patterns: (r) => r.patterns,
  properties: (r) => r.properties,
  start: (r) => r.start,
  startwindow: (r) => r.startWindow,
};

export const isPolicyAttribute = (name: string): boolean => Object.hasOwn(ATTRIBUTES, name.toLowerCase());

/** The attribute's value as upstream's text column holds it (lists as JSON, others as written). */
export function policyAttribute(record: ManagementPolicyRecord, name: string): string {
  const value = ATTRIBUTES[name.toLowerCase()]?.(record);
  return typeof value === 'string' ? value : JSON.stringify(value);
}
