import type { PatternRecord } from '#tables/pattern/records';
import type { PatternBody, PatternService } from './schemas.ts';

/** Upstream's defaults on POST and PUT (`api.defaults.pattern.*`); PATCH fills none. */
const NODE_HEALTH = { missing_heartbeat_interval: 1800, check_agreement_status: 1800 };
const AGREEMENT_PROTOCOLS = [{ name: 'Basic' }];

/** Drops `null` members (upstream's absent Options) from stored objects. */
const compact = <T extends Record<string, unknown>>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined)) as T;

/** A pattern's services as stored: absent members dropped, node health defaulted on POST/PUT. */
export const storedServices = (services: PatternService[], fillDefaults: boolean) =>
  services.map((service) => {
    const stored = compact({ ...service, serviceVersions: service.serviceVersions.map((v) => compact(v)) });
    return fillDefaults && !service.nodeHealth ? { ...stored, nodeHealth: NODE_HEALTH } : stored;
  });

/** The record a POST or PUT stores (description defaults to the label; owner = the caller). */
export function storedPattern(
  org: string,
  name: string,
  owner: string,
  body: PatternBody,
  lastUpdated: string,
): PatternRecord {
  return {
    org,
    name,
    owner,
    public: body.public ?? false,
    label: body.label,
    description: body.description ?? body.label,
    services: storedServices(body.services, true),
    userInput: (body.userInput ?? []).map((u) => compact(u)),
    secretBinding: (body.secretBinding ?? []).map((b) => compact(b)),
    agreementProtocols: body.agreementProtocols ?? AGREEMENT_PROTOCOLS,
    clusterNamespace: body.clusterNamespace ?? '',
    lastUpdated,
    rev: 0,
  };
}

/** One pattern as upstream answers it (no org or name inside: they are the map key). */
export const patternView = (record: PatternRecord) => ({
  owner: record.owner,
  label: record.label,
  description: record.description,
  public: record.public,
  services: record.services,
  userInput: record.userInput,
  secretBinding: record.secretBinding,
  agreementProtocols: record.agreementProtocols,
  lastUpdated: record.lastUpdated,
  clusterNamespace: record.clusterNamespace,
});

/** `{"patterns": {"<org>/<name>": …}, "lastIndex": 0}`. */
export const patternsBody = (records: PatternRecord[]) => ({
  patterns: Object.fromEntries(records.map((r) => [`${r.org}/${r.name}`, patternView(r)])),
  lastIndex: 0,
});

/** `?attribute=` names (case-insensitive), as upstream; undefined for any other name. */
export function patternAttribute(record: PatternRecord, name: string): string | undefined {
  const view: Record<string, unknown> = patternView(record);
  const key = Object.keys(view).find((k) => k !== 'lastUpdated' && k.toLowerCase() === name.toLowerCase());
  if (key === undefined) return undefined;
  const value = view[key];
  return typeof value === 'string' ? value : JSON.stringify(value);
}
