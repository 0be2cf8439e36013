import type { Agreement } from './store.ts';
import { isArchived } from './store.ts';

const MASK = '********';

/**
 * GET /agreement: active ones by creation time, archived ones by termination time. Secret values
 * carried in a proposal (`secretDetails[].secrets[]`, possibly inside JSON text) are masked.
 */
export function agreementsView(agreements: Agreement[]) {
  const active = agreements.filter((a) => !isArchived(a));
  const archived = agreements.filter(isArchived);
  active.sort((a, b) => a.agreement_creation_time - b.agreement_creation_time);
  archived.sort((a, b) => a.agreement_terminated_time - b.agreement_terminated_time);
  return { agreements: { active: active.map(agreementView), archived: archived.map(agreementView) } };
}

/** Upstream's agreement fields (docs/agent.md#agreements-and-trusted-certificates), copied one by one (a stored agreement never reaches a response). */
function agreementView(a: Agreement) {
  return {
    name: a.name,
    dependent_services: a.dependent_services.map((s) => ({ url: s.url, organization: s.organization })),
    archived: a.archived,
    current_agreement_id: a.current_agreement_id,
    consumer_id: a.consumer_id,
    counterparty_address: a.counterparty_address,
    agreement_creation_time: a.agreement_creation_time,
    agreement_accepted_time: a.agreement_accepted_time,
    agreement_finalized_time: a.agreement_finalized_time,
    agreement_execution_start_time: a.agreement_execution_start_time,
    agreement_data_received_time: a.agreement_data_received_time,
    agreement_terminated_time: a.agreement_terminated_time,
    agreement_force_terminated_time: a.agreement_force_terminated_time,
    terminated_reason: a.terminated_reason,
    terminated_description: a.terminated_description,
    agreement_protocol_terminated_time: a.agreement_protocol_terminated_time,
    workload_terminated_time: a.workload_terminated_time,
    proposal: maskSecrets(a.proposal) as string,
    proposal_sig: a.proposal_sig,
    agreement_protocol: a.agreement_protocol,
    protocol_version: a.protocol_version,
    current_deployment: maskSecrets(a.current_deployment),
    extended_deployment: maskSecrets(a.extended_deployment),
    metering_notification: maskSecrets(a.metering_notification),
    workload_to_run: {
      url: a.workload_to_run.url,
      org: a.workload_to_run.org,
      version: a.workload_to_run.version,
      arch: a.workload_to_run.arch,
    },
  };
}

/** Walks objects, arrays and JSON text; every value inside `secretDetails[].secrets[]` becomes `********`. */
export function maskSecrets(value: unknown): unknown {
  if (typeof value === 'string') {
    const text = value.trim();
    if (!text.startsWith('{') && !text.startsWith('[')) return value;
    try {
      const parsed: unknown = JSON.parse(text);
      const masked = JSON.stringify(maskSecrets(parsed));
      return masked === JSON.stringify(parsed) ? value : masked;
    } catch {
      return value;
    }
  }
  if (Array.isArray(value)) return value.map(maskSecrets);
  if (!value || typeof value !== 'object') return value;
  // fromEntries defines each key as data: a `__proto__` key stays an entry.
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [
      key,
      key === 'secretDetails' && Array.isArray(v) ? v.map(maskDetail) : maskSecrets(v),
    ]),
  );
}

function maskDetail(detail: unknown): unknown {
  if (!detail || typeof detail !== 'object' || Array.isArray(detail)) return detail;
  const d = detail as Record<string, unknown>;
  if (!Array.isArray(d.secrets)) return d;
  return {
    ...d,
    secrets: d.secrets.map((entry) =>
      entry && typeof entry === 'object'
        ? Object.fromEntries(Object.keys(entry).map((name) => [name, MASK]))
        : MASK,
    ),
  };
}
