import type { FastifyRequest } from 'fastify';
import { AgentError } from '../ground/errors.ts';

/**
 * The local API has no authentication: whoever reaches it owns the node (it can allow privileged
 * services and trust a signing key). It listens on loopback, so what remains to refuse is a web
 * page in a browser on the node's host:
 * - DNS rebinding (a page whose name now resolves to 127.0.0.1) sends its own name as `Host`:
 *   only loopback names and HZN_AGENT_ALLOWED_HOSTS are served;
 * - a cross-site request carries the page's `Origin`: refused unless it is one of those hosts;
 * - an HTML form can POST `text/plain`, `application/x-www-form-urlencoded` or `multipart/form-data`
 *   without asking first: a body must be `application/json`, which a page can only send after a
 *   CORS preflight this API never grants. Routes that take another body (the PEM of PUT /trust)
 *   set `config.textBody` and still refuse the form encodings.
 * A request without a body needs no content type. Checked before anything else: in the first
 * hook, and before the 400 of a path the router cannot decode (app.ts).
 */

/** Loopback names, as `Host` spells them (IPv6 in brackets). */
const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** What an HTML form can send without a preflight (besides text/plain). */
const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data']);

/** Route option: the body is text, not JSON (its content type is free except the form encodings). */
interface BodyConfig {
  textBody?: boolean;
}

/** `Host` or a configured name without its port, lower-case, IPv6 in brackets. */
export function hostName(host: string): string {
  const value = host.trim().toLowerCase();
  if (value.startsWith('[')) return value.slice(0, value.indexOf(']') + 1);
  if (value.split(':').length > 2) return `[${value}]`; // a bare IPv6 address (configuration only)
  return value.split(':')[0] ?? '';
}

const shown = (value: string) => JSON.stringify(value.slice(0, 100));

/**
 * Where no route was found (a path the router cannot decode), whether the body is text is told by
 * the path: only the trust store's files take one.
 */
export const takesTextBody = (url: string): boolean => url.startsWith('/trust/');

/** The refusal of a request a web page could have sent, or undefined when it may be served. */
type RequestGuard = (req: FastifyRequest, options?: { textBody: boolean }) => AgentError | undefined;

export function requestGuard(allowedHosts: readonly string[] = []): RequestGuard {
  const allowed = new Set([...LOOPBACK_HOSTS, ...allowedHosts.map(hostName)]);
  const hint = 'this agent serves only loopback names and HZN_AGENT_ALLOWED_HOSTS';
  return (req, options) => {
    const host = req.headers.host ?? '';
    if (!allowed.has(hostName(host)))
      return new AgentError(403, `Host ${shown(host)} is refused: ${hint}`, 'host');
    const origin = req.headers.origin;
    if (origin !== undefined && !allowed.has(originHost(origin)))
      return new AgentError(
        403,
        `Origin ${shown(origin)} is refused: cross-site requests are not served`,
        'origin',
      );
    if (!hasBody(req)) return undefined;
    const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    const text = options?.textBody ?? (req.routeOptions?.config as BodyConfig | undefined)?.textBody === true;
    if (text ? !FORM_TYPES.has(type) : type === 'application/json') return undefined;
    const given = req.headers['content-type'] === undefined ? 'none' : shown(req.headers['content-type']);
    return new AgentError(
      415,
      `request bodies must be sent as application/json (content type: ${given})`,
      'content-type',
    );
  };
}

/** The host of an `Origin` (`null` and anything unparsable match no host). */
function originHost(origin: string): string {
  if (!URL.canParse(origin)) return '';
  const url = new URL(origin);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.hostname.toLowerCase() : '';
}

const hasBody = (req: FastifyRequest): boolean =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) !== 0;
