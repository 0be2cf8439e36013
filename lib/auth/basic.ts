/** Credentials from an HTTP Basic header: `org/id:secret`. */
interface BasicCredentials {
  org: string;
  id: string;
  secret: string;
}

/**
 * Parses `Authorization: Basic base64(org/id:secret)`. The id part is split at its first `/`;
 * whitespace anywhere in it, or an empty org or id, makes the header unusable (→ 401).
 */
export function parseBasicAuth(header: string | undefined): BasicCredentials | undefined {
  if (!header) return undefined;
  const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  const user = decoded.slice(0, colon);
  const secret = decoded.slice(colon + 1);
  const slash = user.indexOf('/');
  if (slash <= 0 || slash === user.length - 1 || /\s/.test(user)) return undefined;
  return { org: user.slice(0, slash), id: user.slice(slash + 1), secret };
}

export const basicAuthHeader = (user: string, secret: string): string =>
  `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;
