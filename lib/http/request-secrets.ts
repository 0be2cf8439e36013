import { isSecretKey } from '#lib/log-redaction';

interface RequestWithSecrets {
  headers?: Record<string, string | undefined>;
  body?: unknown;
}

/**
 * The secret values a request carries, to cut out of any free text logged about it (an error
 * message that echoes one): the Authorization header in every form it can be read (whole, encoded,
 * decoded, the password or token alone), the raw body, and the body's secret-keyed fields.
 */
export function requestSecrets(event: RequestWithSecrets | undefined): string[] {
  const secrets: string[] = [];
  const headers = event?.headers ?? {};
  for (const [name, value] of Object.entries(headers)) {
    if (value && isSecretKey(name)) secrets.push(value, ...credentialForms(value));
  }
  const body = event?.body;
  if (typeof body === 'string' && body !== '') {
    secrets.push(body);
    collectSecretFields(parseJson(body), secrets);
  } else {
    collectSecretFields(body, secrets);
  }
  return secrets;
}

/** `Basic b64(id:secret)` → the encoded part, `id:secret`, and `secret`; `Bearer t` → `t`. */
function credentialForms(header: string): string[] {
  const encoded = header.replace(/^\s*\S+\s+/, '').trim();
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? [encoded] : [encoded, decoded, decoded.slice(colon + 1)];
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function collectSecretFields(value: unknown, into: string[], depth = 0): void {
  if (depth > 8 || value === null || typeof value !== 'object') return;
  for (const [key, inner] of Object.entries(value)) {
    if (isSecretKey(key) && typeof inner === 'string') into.push(inner);
    else collectSecretFields(inner, into, depth + 1);
  }
}
