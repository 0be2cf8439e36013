import type { Store } from '../store/store.ts';

/**
 * An agreement as the agent keeps it (upstream's agreement fields). Agreements are made by the
 * workload worker (a later issue); until then they only arrive through `saveAgreement`.
 */
export interface Agreement {
  name: string;
  current_agreement_id: string;
  consumer_id: string;
  counterparty_address: string;
  archived: boolean;
  agreement_creation_time: number;
  agreement_accepted_time: number;
  agreement_finalized_time: number;
  agreement_execution_start_time: number;
  agreement_data_received_time: number;
  agreement_terminated_time: number;
  agreement_force_terminated_time: number;
  terminated_reason: number;
  terminated_description: string;
  agreement_protocol_terminated_time: number;
  workload_terminated_time: number;
  proposal: string;
  proposal_sig: string;
  agreement_protocol: string;
  protocol_version: number;
  dependent_services: { url: string; organization: string }[];
  current_deployment: Record<string, unknown>;
  extended_deployment: Record<string, unknown>;
  metering_notification: Record<string, unknown>;
  workload_to_run: { url: string; org: string; version: string; arch: string };
  [more: string]: unknown;
}

/** Archived, or termination started: either way no longer active. */
export const isArchived = (a: Agreement) => a.archived || a.agreement_terminated_time > 0;

/** Every agreement, oldest first (by creation time, then id). */
export function loadAgreements(store: Store): Agreement[] {
  return store
    .rows<{ record: string }>('SELECT record FROM agreements ORDER BY created_at, agreement_id')
    .map((row) => JSON.parse(row.record) as Agreement);
}

/** Adds or replaces (by `current_agreement_id`) one agreement: one row, the others untouched. */
export function saveAgreement(store: Store, agreement: Agreement): void {
  store.run(
    `INSERT INTO agreements (agreement_id, archived, created_at, record) VALUES (?, ?, ?, ?)
     ON CONFLICT (agreement_id) DO UPDATE SET archived = excluded.archived, created_at = excluded.created_at,
       record = excluded.record`,
    agreement.current_agreement_id,
    isArchived(agreement) ? 1 : 0,
    agreement.agreement_creation_time,
    JSON.stringify(agreement),
  );
}

/** Forgets every agreement (unregistration with deep clean). */
export function deleteAllAgreements(store: Store): void {
  store.run('DELETE FROM agreements');
}

/** A blank agreement with every field; tests and the workload worker fill in what they know. */
export function newAgreement(id: string, fields: Partial<Agreement> = {}): Agreement {
  return {
    name: '',
    current_agreement_id: id,
    consumer_id: '',
    counterparty_address: '',
    archived: false,
    agreement_creation_time: 0,
    agreement_accepted_time: 0,
    agreement_finalized_time: 0,
    agreement_execution_start_time: 0,
    agreement_data_received_time: 0,
    agreement_terminated_time: 0,
    agreement_force_terminated_time: 0,
    terminated_reason: 0,
    terminated_description: '',
    agreement_protocol_terminated_time: 0,
    workload_terminated_time: 0,
    proposal: '',
    proposal_sig: '',
    agreement_protocol: 'Basic',
    protocol_version: 2,
    dependent_services: [],
    current_deployment: {},
    extended_deployment: {},
    metering_notification: {},
    workload_to_run: { url: '', org: '', version: '', arch: '' },
    ...fields,
  };
}
