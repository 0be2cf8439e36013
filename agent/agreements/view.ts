import { isArchived } from './cancel.ts';
import type { Agreement } from './store.ts';

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
  const show = (a: Agreement) => ({ ...a, proposal: maskSecrets(a.proposal) as string });
  return { agreements: { active: active.map(show), archived: archived.map(show) } };
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
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = key === 'secretDetails' && Array.isArray(v) ? v.map(maskDetail) : maskSecrets(v);
  }
  return out;
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
