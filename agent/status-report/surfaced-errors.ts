/**
 * The errors the node surfaces to the Exchange (`PUT /orgs/{org}/nodes/{node}/errors`, `GET
 * /eventlog/surface`), kept as anax keeps them (persistence/surface_errors.go,
 * exchangesync/surface_errors.go): an error event of a surfaced kind about an agreement's or a
 * service's workload becomes the workload's one surfaced error (a newer one replaces it; `hidden`
 * survives only while the event code stays the same), and the error goes once an agreement for
 * the same workload (org and url) has lasted `persistentS` seconds since it was finalized.
 */
import type { ProtocolAgreement } from '../protocol/records.ts';
import type { StoredEvent } from '../store/store.ts';

/** anax's getErrorTypeList. */
export const SURFACED_CODES = new Set([
  'error_image_load',
  'error_in_deployment_configuration',
  'error_start_container',
  'cancel_agreement_execution_timeout',
  'cancel_agreement_service_suspended',
  'error_service_configuration',
  'error_start_service',
  'error_start_dependent_service',
  'dependent_service_failed',
]);

/** anax's SurfaceErrorAgreementPersistentS default. */
export const AGREEMENT_PERSISTENT_S = 90;

export interface Workload {
  url: string;
  org: string;
  version: string;
  arch: string;
}

export interface SurfacedError {
  record_id: string;
  message: string;
  event_code: string;
  hidden: boolean;
  workload: Workload;
  timestamp: string;
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The workload an event is about: the agreement's `workload_to_run`, or the service's own fields. */
export function workloadOf(event: StoredEvent): Workload | undefined {
  const source = event.event_source;
  if (event.source_type === 'agreement') {
    const w = source.workload_to_run as Record<string, unknown> | undefined;
    return w
      ? { url: text(w.url), org: text(w.org), version: text(w.version), arch: text(w.arch) }
      : undefined;
  }
  if (event.source_type === 'service')
    return {
      url: text(source.service_url ?? source.url),
      org: text(source.org),
      version: text(source.version),
      arch: text(source.arch),
    };
  return undefined;
}

/** Go's `time.Unix(t, 0).String()` in UTC, the timestamp anax writes. */
export function goTime(seconds: number): string {
  const iso = new Date(seconds * 1000).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} +0000 UTC`;
}

/**
 * `current` with the surfaced events among `events` (oldest first) folded in. `agreementWorkload`
 * names the workload of an agreement event whose source carries only the agreement id.
 */
export function foldEvents(
  current: SurfacedError[],
  events: StoredEvent[],
  agreementWorkload: (agreementId: string) => Workload | undefined = () => undefined,
): SurfacedError[] {
  const next = [...current];
  for (const event of events) {
    if (!SURFACED_CODES.has(event.event_code)) continue;
    const id = event.event_source.agreement_id;
    const workload =
      workloadOf(event) ??
      (event.source_type === 'agreement' && typeof id === 'string' ? agreementWorkload(id) : undefined);
    if (!workload) continue;
    const error: SurfacedError = {
      record_id: String(event.record_id),
      message: event.message,
      event_code: event.event_code,
      hidden: false,
      workload,
      timestamp: goTime(event.timestamp),
    };
    const at = next.findIndex((e) => e.workload.url === workload.url && e.workload.org === workload.org);
    if (at < 0) next.push(error);
    else
      next[at] = { ...error, hidden: next[at]?.event_code === error.event_code && next[at]?.hidden === true };
  }
  return next;
}

/** Without the errors of workloads that now have an agreement finalized `persistentS` ago. */
export function dropResolved(
  errors: SurfacedError[],
  agreements: ProtocolAgreement[],
  nowS: number,
  persistentS = AGREEMENT_PERSISTENT_S,
): SurfacedError[] {
  const lasting = agreements.filter(
    (a) =>
      !a.archived &&
      a.agreement_terminated_time === 0 &&
      a.agreement_finalized_time > 0 &&
      nowS - a.agreement_finalized_time >= persistentS,
  );
  return errors.filter(
    (e) =>
      !lasting.some(
        (a) =>
          (e.workload.url === '' || a.workload_to_run.url === e.workload.url) &&
          (e.workload.org === '' || a.workload_to_run.org === e.workload.org),
      ),
  );
}
