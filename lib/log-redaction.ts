/**
 * What the Exchange's logger refuses to print. Two nets, because a secret can reach a log line two
 * ways: under a telling key (`password`, `token`, `headers`...), redacted wherever it sits in a
 * logged object; or inside free text such as an error message, where only the request's own secret
 * values (see `#lib/http/request-secrets`) can be recognised and cut out.
 */
export const REDACTED = '[redacted]';

/** Keys never printed, at any depth: secrets, and whole headers, bodies or events that may hold them. */
const SECRET_KEY =
  /pass(word)?|passwd|pwd|pw$|secret|token|authorization|^auth$|cookie|credential|api_?key|private_?key|^body$|^headers$|^multiValueHeaders$|^event$/i;

export const isSecretKey = (key: string): boolean => SECRET_KEY.test(key);

/** Shorter values are not cut out of text: they would mangle ordinary words without protecting much. */
const MIN_SECRET_LENGTH = 4;

/** Replaces every occurrence of each known secret value in `text`, longest first. */
export function redactValues(text: string, secrets: readonly string[]): string {
  const usable = secrets.filter((s) => s.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
  let out = text;
  for (const secret of usable) out = out.split(secret).join(REDACTED);
  return out;
}
