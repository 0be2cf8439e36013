import { createHttp, type HttpResponse } from '#lib/http-client';
import { SIGNALS_HEADER, usableSignalsUrl } from '#lib/signals/address';
import { own, ownTable } from '../ground/own.ts';
import type {
  ExchangeManagementStatus,
  ExchangeNmp,
  ExchangeNode,
  ExchangePolicy,
  NodePolicy,
} from './types.ts';

/** A node's own credentials: Basic `org/id:token`. */
export interface Credentials {
  org: string;
  id: string;
  token: string;
}

/** The Exchange could not be reached or is temporarily failing: worth retrying later. */
export class ExchangeUnavailableError extends Error {}

/** The Exchange answered with a status the caller has to handle (401, 400, 404, ...). */
export class ExchangeHttpError extends Error {
  readonly status: number;

  constructor(status: number, detail: string) {
    super(`HTTP ${status}${detail ? `: ${detail}` : ''}`);
    this.status = status;
  }
}

export type ExchangeClient = ReturnType<typeof createExchangeClient>;

/** Statuses that mean "try again later" rather than "your request is wrong". */
const RETRYABLE = new Set([408, 429, 500, 502, 503, 504]);

export function createExchangeClient(options: { baseUrl: string; timeoutMs: number }) {
  const base = options.baseUrl.replace(/\/+$/, '');
  const http = createHttp(options.timeoutMs);

  async function call(
    method: string,
    path: string,
    creds: Credentials | undefined,
    body?: unknown,
  ): Promise<HttpResponse> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (creds) {
      const basic = Buffer.from(`${creds.org}/${creds.id}:${creds.token}`).toString('base64');
      headers.authorization = `Basic ${basic}`;
    }
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: HttpResponse;
    try {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      response = await http.send(method, new URL(`${base}${path}`), headers, payload);
    } catch (err) {
      throw new ExchangeUnavailableError(`${method} ${path}: ${describe(err)}`);
    }
    if (RETRYABLE.has(response.status)) {
      throw new ExchangeUnavailableError(`${method} ${path}: HTTP ${response.status}`);
    }
    return response;
  }

  /** 2xx → parsed body; 404 → undefined when `missingOk`; anything else → ExchangeHttpError. */
  async function request<T>(
    method: string,
    path: string,
    creds: Credentials | undefined,
    body?: unknown,
    missingOk = false,
  ): Promise<T | undefined> {
    const { status, text } = await call(method, path, creds, body);
    if (status >= 200 && status < 300) return text ? (safeJson(text) as T) : undefined;
    if (status === 404 && missingOk) return undefined;
    throw new ExchangeHttpError(status, messageOf(text));
  }

  const nodePath = (c: Credentials) => `/orgs/${enc(c.org)}/nodes/${enc(c.id)}`;

  /**
   * POST /orgs/{org}/changes, with the signal channel's address when the Exchange announces one
   * (docs/signals.md); upstream's Exchange never does.
   */
  async function changes(
    creds: Credentials,
    body: object,
  ): Promise<{ body: unknown; signalsUrl: string | undefined }> {
    const path = `/orgs/${enc(creds.org)}/changes`;
    const response = await call('POST', path, creds, body);
    if (response.status < 200 || response.status >= 300)
      throw new ExchangeHttpError(response.status, messageOf(response.text));
    const announced = response.headers[SIGNALS_HEADER.toLowerCase()];
    return {
      body: response.text ? safeJson(response.text) : undefined,
      signalsUrl: usableSignalsUrl(announced, base),
    };
  }

  return {
    baseUrl: base,
    close: http.close,
    /** Any other call, same error mapping (the agreement protocol's mailboxes, agreements). */
    request,
    changes,

    /** The Exchange version (plain text), asked anonymously. */
    async version(): Promise<string> {
      const { status, text } = await call('GET', '/admin/version', undefined);
      if (status !== 200) throw new ExchangeHttpError(status, messageOf(text));
      return text.trim();
    },

    async getOrg(creds: Credentials, org: string): Promise<object | undefined> {
      const body = await request<{ orgs?: Record<string, object> }>(
        'GET',
        `/orgs/${enc(org)}`,
        creds,
        undefined,
        true,
      );
      return own(body?.orgs, org);
    },

    async getNode(creds: Credentials): Promise<ExchangeNode | undefined> {
      const body = await request<{ nodes?: Record<string, ExchangeNode> }>(
        'GET',
        nodePath(creds),
        creds,
        undefined,
        true,
      );
      return own(body?.nodes, `${creds.org}/${creds.id}`);
    },

    /** PATCH one attribute of the node record (the Exchange accepts exactly one per call). */
    async patchNode(creds: Credentials, attribute: string, value: unknown): Promise<void> {
      await request('PATCH', nodePath(creds), creds, { [attribute]: value });
    },

    /** Deletes the node; a node already gone is fine. */
    async deleteNode(creds: Credentials): Promise<void> {
      await request('DELETE', nodePath(creds), creds, undefined, true);
    },

    async heartbeat(creds: Credentials): Promise<void> {
      await request('POST', `${nodePath(creds)}/heartbeat`, creds);
    },

    async getPolicy(creds: Credentials): Promise<ExchangePolicy | undefined> {
      return request<ExchangePolicy>('GET', `${nodePath(creds)}/policy`, creds, undefined, true);
    },

    async putPolicy(creds: Credentials, policy: NodePolicy): Promise<void> {
      await request('PUT', `${nodePath(creds)}/policy`, creds, { ...policy, nodePolicyVersion: 'v2' });
    },

    /** Deletes the node's policy; none there is fine. */
    async deletePolicy(creds: Credentials): Promise<void> {
      await request('DELETE', `${nodePath(creds)}/policy`, creds, undefined, true);
    },

    /** The node's management statuses keyed `<org>/<policy>` (none → empty). */
    async getManagementStatuses(creds: Credentials): Promise<Record<string, ExchangeManagementStatus>> {
      const path = `${nodePath(creds)}/managementStatus`;
      const body = await request<{ managementStatus?: Record<string, ExchangeManagementStatus> }>(
        'GET',
        path,
        creds,
        undefined,
        true,
      );
      return ownTable(body?.managementStatus);
    },

    async putManagementStatus(
      creds: Credentials,
      policy: string,
      status: ExchangeManagementStatus,
    ): Promise<void> {
      await request('PUT', `${nodePath(creds)}/managementStatus/${enc(policy)}`, creds, status);
    },

    async deleteManagementStatus(creds: Credentials, policy: string): Promise<void> {
      await request('DELETE', `${nodePath(creds)}/managementStatus/${enc(policy)}`, creds, undefined, true);
    },

    /** The node management policies of an org keyed `<org>/<name>` (none → empty). */
    async getManagementPolicies(creds: Credentials, org: string): Promise<Record<string, ExchangeNmp>> {
      const path = `/orgs/${enc(org)}/managementpolicies`;
      const body = await request<{ managementPolicy?: Record<string, ExchangeNmp> }>(
        'GET',
        path,
        creds,
        undefined,
        true,
      );
      return ownTable(body?.managementPolicy);
    },

    async getPattern(creds: Credentials, org: string, name: string): Promise<object | undefined> {
      const path = `/orgs/${enc(org)}/patterns/${enc(name)}`;
      const body = await request<{ patterns?: Record<string, object> }>('GET', path, creds, undefined, true);
      return own(body?.patterns, `${org}/${name}`);
    },
  };
}

const enc = encodeURIComponent;

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The `msg` of an Exchange `{code,msg}` error body, else the (short) body itself. */
function messageOf(text: string): string {
  const body = safeJson(text);
  if (body && typeof body === 'object' && Object.hasOwn(body, 'msg'))
    return String((body as { msg: unknown }).msg);
  return text.slice(0, 200);
}

function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as NodeJS.ErrnoException).code;
  return code && !err.message.includes(code) ? `${code} ${err.message}` : err.message;
}
