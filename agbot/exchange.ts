import { createHttp } from '#lib/http-client';
import { type PageQuery, pageQueryString } from '#lib/protocol/mailbox-pages';
import { SIGNALS_HEADER, usableSignalsUrl } from '#lib/signals/address';

/**
 * Where a bound secret is read: in the node's org `org` (as upstream's agbot reads every bound
 * secret), for the deployment policy or pattern whose binding names it: `<name>` when it belongs
 * to that org, else `<its org>/<name>` (README "Secrets").
 */
export interface SecretSource {
  org: string;
  kind: 'policy' | 'pattern';
  name: string;
}

/** The source of `kind` `sourceOrg/name` for a node of `nodeOrg`. */
export const secretSource = (
  kind: SecretSource['kind'],
  sourceOrg: string,
  name: string,
  nodeOrg: string,
): SecretSource => ({ org: nodeOrg, kind, name: sourceOrg === nodeOrg ? name : `${sourceOrg}/${name}` });

/** The Exchange answered with a status the agbot did not expect. */
export class AgbotExchangeError extends Error {
  constructor(
    readonly status: number,
    readonly call: string,
    detail: string,
  ) {
    super(`${call}: HTTP ${status}${detail ? ` ${detail}` : ''}`);
    this.name = 'AgbotExchangeError';
  }
}

export type AgbotExchange = ReturnType<typeof agbotExchange>;

const enc = encodeURIComponent;

/**
 * The agbot's calls to the Exchange, as `<org>/<id>` with its token (Basic auth), over the same
 * keep-alive node:http client the agent uses. Each method names one upstream route. Reads of
 * something that may be missing answer `undefined` on 404; any other unexpected status throws.
 * Bodies are returned unchecked: the round's readers validate what they use (agbot/rounds/wire.ts).
 */
export function agbotExchange(options: {
  baseUrl: string;
  org: string;
  id: string;
  token: string;
  timeoutMs: number;
}) {
  const http = createHttp(options.timeoutMs);
  const authorization = `Basic ${Buffer.from(`${options.org}/${options.id}:${options.token}`).toString('base64')}`;
  const self = `/orgs/${enc(options.org)}/agbots/${enc(options.id)}`;
  /** Requests sent since start (the bench counts an idle round's). */
  let requests = 0;
  /** The signal channel's address, as POST /changes last announced it (docs/signals.md). */
  let signalsUrl: string | undefined;

  async function call(
    method: string,
    path: string,
    body?: unknown,
    expected: number[] = [200, 201],
  ): Promise<unknown> {
    const headers: Record<string, string> = { accept: 'application/json', authorization };
    if (body !== undefined) headers['content-type'] = 'application/json';
    requests += 1;
    const response = await http.send(
      method,
      new URL(`${options.baseUrl}${path}`),
      headers,
      body === undefined ? undefined : JSON.stringify(body),
    );
    if (!expected.includes(response.status)) {
      throw new AgbotExchangeError(response.status, `${method} ${path}`, response.text.slice(0, 200));
    }
    if (path.endsWith('/changes')) {
      const announced = response.headers[SIGNALS_HEADER.toLowerCase()];
      signalsUrl = usableSignalsUrl(announced, options.baseUrl);
    }
    return response.text === '' ? undefined : JSON.parse(response.text);
  }

  /** A GET whose 404 means "none" (upstream answers an empty list with 404). */
  const read = async (path: string): Promise<unknown> => {
    try {
      return await call('GET', path, undefined, [200]);
    } catch (error) {
      if (error instanceof AgbotExchangeError && error.status === 404) return undefined;
      throw error;
    }
  };

  const nodePath = (org: string, node: string) => `/orgs/${enc(org)}/nodes/${enc(node)}`;

  return {
    call,
    requests: () => requests,
    signalsUrl: () => signalsUrl,
    authorization: () => authorization,
    /** Publishes the messaging public key on the agbot's own record (nodes verify against it). */
    publishPublicKey: (publicKey: string) => call('PATCH', self, { publicKey }),
    heartbeat: () => call('POST', `${self}/heartbeat`),
    /** POST /orgs/{org}/changes: the feed from `changeId` on, and the heartbeat. */
    changes: (body: { changeId: number; maxRecords: number; orgList?: string[] }) =>
      call('POST', `/orgs/${enc(options.org)}/changes`, body, [200, 201]),
    /** GET /changes/maxchangeid: the newest change id the Exchange has numbered. */
    maxChangeId: () => read('/changes/maxchangeid'),
    /** One page of the mailbox (`?maxmsgs=…&after=…`); undefined when it has nothing more. */
    messages: (page: PageQuery) => read(`${self}/msgs?${pageQueryString(page)}`),
    deleteMessage: (msgId: number) => call('DELETE', `${self}/msgs/${msgId}`, undefined, [200, 204, 404]),
    servedPolicies: () => read(`${self}/businesspols`),
    servedPatterns: () => read(`${self}/patterns`),
    servePolicy: (body: { businessPolOrgid: string; businessPol: string; nodeOrgid: string }) =>
      call('POST', `${self}/businesspols`, body, [200, 201, 409]),
    servePattern: (body: { patternOrgid: string; pattern: string; nodeOrgid: string }) =>
      call('POST', `${self}/patterns`, body, [200, 201, 409]),
    /** The org's `heartbeatIntervals` (undefined when it has none, or the agbot may not read the org). */
    orgHeartbeatIntervals: async (org: string): Promise<unknown> => {
      const body = (await read(`/orgs/${enc(org)}`)) as {
        orgs?: Record<string, { heartbeatIntervals?: unknown }>;
      };
      return body?.orgs?.[org]?.heartbeatIntervals ?? undefined;
    },
    /**
     * Our Exchange's console summary of `org` (GET /console/orgs/{org}/fleet): asking is what keeps
     * it, since the Exchange computes and stores one older than `maxAgeS` (default 30 s).
     */
    fleetSummary: (org: string, maxAgeS?: number) =>
      read(`/console/orgs/${enc(org)}/fleet${maxAgeS === undefined ? '' : `?maxAge=${maxAgeS}`}`),
    deploymentPolicies: (org: string) => read(`/orgs/${enc(org)}/business/policies`),
    deploymentPolicy: (org: string, name: string) => read(`/orgs/${enc(org)}/business/policies/${enc(name)}`),
    /** The policy search; 404 (no nodes) and 409 (session out of sync) are answers, not errors. */
    searchPolicy: async (org: string, name: string, body: Record<string, unknown>) => {
      const path = `/orgs/${enc(org)}/business/policies/${enc(name)}/search`;
      return call('POST', path, body, [200, 201, 404, 409]);
    },
    patterns: (org: string) => read(`/orgs/${enc(org)}/patterns`),
    pattern: (org: string, name: string) => read(`/orgs/${enc(org)}/patterns/${enc(name)}`),
    /** The pattern search; 404 (no nodes) and 400 (pattern or service gone) answer "no nodes". */
    searchPattern: async (org: string, name: string, body: Record<string, unknown>) => {
      const path = `/orgs/${enc(org)}/patterns/${enc(name)}/search`;
      return call('POST', path, body, [200, 201, 400, 404]);
    },
    /** Node health of an org's policy nodes heartbeating since `lastTime`; 404 = none. */
    nodeHealth: (org: string, body: { lastTime: string; nodeOrgids: string[] }) =>
      call('POST', `/orgs/${enc(org)}/search/nodehealth`, body, [200, 201, 404]),
    /** The same for a pattern's nodes. */
    patternNodeHealth: (org: string, pattern: string, body: { lastTime: string; nodeOrgids: string[] }) =>
      call('POST', `/orgs/${enc(org)}/patterns/${enc(pattern)}/nodehealth`, body, [200, 201, 404]),
    node: (org: string, node: string) => read(nodePath(org, node)),
    nodePolicy: (org: string, node: string) => read(`${nodePath(org, node)}/policy`),
    /** The node's status report (its workloads and their containers); undefined when it has none. */
    nodeStatus: (org: string, node: string) => read(`${nodePath(org, node)}/status`),
    services: (org: string, query: Record<string, string>) =>
      read(`/orgs/${enc(org)}/services?${new URLSearchParams(query)}`),
    servicePolicy: (org: string, serviceId: string) =>
      read(`/orgs/${enc(org)}/services/${enc(serviceId)}/policy`),
    /**
     * `{key, value}` of a secret bound by the deployment policy or pattern `source` (the Exchange
     * checks the agbot serves it and it binds the name); undefined when it does not exist or the
     * Exchange refuses it (403). Never logged.
     */
    secret: async (source: SecretSource, name: string) => {
      const path = `/orgs/${enc(source.org)}/secrets/${name.split('/').map(enc).join('/')}`;
      const query = `?${source.kind}=${enc(source.name)}`;
      const answer = await call('GET', `${path}${query}`, undefined, [200, 403, 404]);
      // A refusal or a missing secret answers `{code, msg}`: no value.
      return answer !== null && typeof answer === 'object' && 'code' in answer ? undefined : answer;
    },
    sendToNode: (org: string, node: string, message: string, ttl: number) =>
      call('POST', `${nodePath(org, node)}/msgs`, { message, ttl }),
    putAgreement: (agreementId: string, body: unknown) =>
      call('PUT', `${self}/agreements/${enc(agreementId)}`, body),
    deleteAgreement: (agreementId: string) =>
      call('DELETE', `${self}/agreements/${enc(agreementId)}`, undefined, [200, 204, 404]),
    close: () => http.close(),
  };
}
