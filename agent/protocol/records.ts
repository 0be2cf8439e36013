/**
 * The agreement records the protocol keeps (agent/agreements/store.ts rows), with the fields only
 * the protocol reads (never shown by GET /agreement, which copies upstream's agreement fields
 * one by one): whom to answer, the agbot's key, the secret names and the service's declared inputs.
 * Secret values are never stored here: they live in the agreement's 0600 secret files.
 */
import { type PolicyDocument, policyDocumentSchema } from '#lib/protocol/policy-document';
import type { Agreement } from '../agreements/store.ts';
import { isArchived, loadAgreements, saveAgreement } from '../agreements/store.ts';
import type { Store } from '../store/store.ts';
import type { DeclaredInput, ServiceRecord } from './exchange-calls.ts';

interface ProtocolFields {
  /** The agbot that sent the proposal (`org/id` as the Exchange recorded it): replies go there. */
  agbot_id: string;
  /** Its published key (base64 DER) when the proposal came. */
  agbot_public_key: string;
  /** The service's secret names (files under /platform-secrets). */
  secret_names: string[];
  /** The service's declared user input (defaults for the environment). */
  declared_inputs: DeclaredInput[];
  /** The service's Exchange record when the proposal came (GET /service's definition). */
  service_record: ServiceRecord;
}

export type ProtocolAgreement = Agreement & Partial<ProtocolFields>;

export function findAgreement(store: Store, id: string): ProtocolAgreement | undefined {
  const row = store.rows<{ record: string }>('SELECT record FROM agreements WHERE agreement_id = ?', id)[0];
  return row ? (JSON.parse(row.record) as ProtocolAgreement) : undefined;
}

export const activeAgreements = (store: Store): ProtocolAgreement[] =>
  loadAgreements(store).filter((a) => !isArchived(a));

/** Terminating: termination started, not archived yet (its cleanup is resumed until done). */
export const terminatingAgreements = (store: Store): ProtocolAgreement[] =>
  loadAgreements(store).filter((a) => a.agreement_terminated_time > 0 && !a.archived);

/**
 * Reads, changes and writes one agreement in one synchronous step, so a change made meanwhile by
 * another path (a cancel from the API, a workload start ending) is never overwritten.
 */
export function updateAgreement(
  store: Store,
  id: string,
  change: (a: ProtocolAgreement) => Partial<ProtocolAgreement> | undefined,
): ProtocolAgreement | undefined {
  const current = findAgreement(store, id);
  if (!current) return undefined;
  const fields = change(current);
  if (!fields) return current;
  const next = { ...current, ...fields };
  saveAgreement(store, next);
  return next;
}

/** The T&C inside the stored proposal (secret values in it are masked). */
export function termsOf(agreement: Agreement): PolicyDocument | undefined {
  try {
    const proposal = JSON.parse(agreement.proposal) as { tsandcs?: string };
    const parsed = policyDocumentSchema.safeParse(JSON.parse(proposal.tsandcs ?? ''));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The `event_source` of agreement events (docs/agent.md#event-log selector attributes). */
export const agreementSource = (a: Agreement) => ({
  agreement_id: a.current_agreement_id,
  workload_to_run: a.workload_to_run,
  dependent_services: a.dependent_services,
  consumer_id: a.consumer_id,
  agreement_protocol: a.agreement_protocol,
});

/** The secrets table: names and times only. */
export function recordSecrets(
  store: Store,
  agreementId: string,
  names: string[],
  service: { org: string; url: string },
  at: number,
): void {
  for (const name of names) {
    store.run(
      `INSERT INTO secrets (agreement_id, name, service_org, service_url, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (agreement_id, name) DO UPDATE SET updated_at = excluded.updated_at`,
      agreementId,
      name,
      service.org,
      service.url,
      at,
    );
  }
}

export function forgetSecrets(store: Store, agreementId: string): void {
  store.run('DELETE FROM secrets WHERE agreement_id = ?', agreementId);
}

export const nowSeconds = (now: () => number): number => Math.floor(now() / 1000);
