import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isValidVersion, versionInRange } from '#lib/catalog/version-range';
import { nonEmpty } from './config.ts';
import type { Ctx } from './context.ts';
import { EXIT, fatal } from './errors.ts';
import { type HttpResult, type SendOptions, send, TransportError } from './http.ts';

/**
 * The Exchange as hzn calls it (docs/hzn-behaviour.md#http, #exit-codes-and-prompts, #exchange-credentials): `HZN_EXCHANGE_URL` already ends in
 * `/v1`; Basic `org/id:secret` (the org prepended unless the id has one); upstream's retry policy;
 * upstream's messages for unexpected statuses.
 */
const MINIMUM_EXCHANGE_VERSION = '2.124.0';

export class ExchangeClient {
  constructor(
    readonly ctx: Ctx,
    readonly baseUrl: string,
    /** `org/id:secret`, or undefined for anonymous calls. */
    readonly creds: string | undefined,
  ) {}

  url(path: string): string {
    return `${this.baseUrl}/${path}`;
  }

  async call(method: string, path: string, body?: unknown, options: SendOptions = {}): Promise<HttpResult> {
    const url = this.url(path);
    const env = this.ctx.env;
    const headers: Record<string, string> = { 'accept-language': env.HZN_LANG || 'en', ...options.headers };
    if (this.creds) headers.authorization = `Basic ${Buffer.from(this.creds).toString('base64')}`;
    try {
      return await send(this.ctx, method, url, {
        ...options,
        headers,
        body,
        retries: intOr(env.HZN_HTTP_RETRIES, 5),
        retryIntervalMs: intOr(env.HZN_HTTP_RETRY_INTERVAL, 2) * 1000,
        timeoutMs: intOr(env.HZN_HTTP_TIMEOUT, 30) * 1000,
      });
    } catch (err) {
      if (!(err instanceof TransportError)) throw err;
      throw fatal(
        EXIT.HTTP_ERROR,
        `Encountered HTTP error: ${err.message} calling Exchange REST API ${method} ${url}. HTTP status: . Check that HZN_EXCHANGE_URL (${this.baseUrl}) is the URL of a running Exchange, including /v1.`,
      );
    }
  }

  /** A call that must answer one of `ok`; anything else is upstream's exit-5 message. */
  async expect(method: string, path: string, ok: number[], body?: unknown): Promise<HttpResult> {
    const result = await this.call(method, path, body);
    if (!ok.includes(result.status)) throw unexpectedStatus(method, this.url(path), result);
    return result;
  }

  /** Refuses an Exchange older than upstream's minimum (skipped without credentials, as upstream). */
  async checkVersion(): Promise<void> {
    if (!this.creds) return;
    const result = await this.expect('GET', 'admin/version', [200]);
    const version = result.text.trim();
    if (!isValidVersion(version))
      throw fatal(
        EXIT.CLI_GENERAL_ERROR,
        `The current exchange version ${version} is not a valid version string.`,
      );
    if (!versionInRange(version, `[${MINIMUM_EXCHANGE_VERSION},INFINITY)`))
      throw fatal(
        EXIT.CLI_GENERAL_ERROR,
        `The current exchange version ${version} does not meet the requirement. The required version is ${MINIMUM_EXCHANGE_VERSION} or above. Please upgrade the exchange.`,
      );
  }
}

/** Upstream's three shapes of "bad HTTP code" message, all exit 5. */
export function unexpectedStatus(method: string, url: string, result: HttpResult) {
  if (method === 'GET')
    return fatal(EXIT.HTTP_ERROR, `bad HTTP code ${result.status} from GET ${url}, output: ${result.text}`);
  if (method === 'DELETE') return fatal(EXIT.HTTP_ERROR, `bad HTTP code ${result.status} from DELETE ${url}`);
  const parsed = parseJson(result.text) as { code?: unknown; msg?: unknown } | undefined;
  const detail =
    parsed && typeof parsed === 'object' && 'msg' in parsed
      ? `${String(parsed.code)}, ${String(parsed.msg)}`
      : result.text;
  return fatal(EXIT.HTTP_ERROR, `bad HTTP code ${result.status} from ${method} ${url}: ${detail}`);
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The body of a 2xx answer as JSON; not JSON is exit 3. */
export function jsonBody<T = unknown>(result: HttpResult, url: string): T {
  try {
    return JSON.parse(result.text) as T;
  } catch (err) {
    throw fatal(
      EXIT.JSON_PARSING_ERROR,
      `failed to unmarshal REST API response from ${url}: ${(err as Error).message}`,
    );
  }
}

const intOr = (text: string | undefined, fallback: number) => {
  const value = Number.parseInt(text ?? '', 10);
  return Number.isFinite(value) && value >= 0 ? value : fallback;
};

/** `HZN_EXCHANGE_URL` (or the agent's config files), without its trailing `/`. */
export function exchangeUrl(ctx: Ctx): string {
  const fromEnv = nonEmpty(ctx.env.HZN_EXCHANGE_URL);
  const url = fromEnv ?? anaxExchangeUrl(ctx.io.etcDir);
  if (!url)
    throw fatal(
      EXIT.CLI_GENERAL_ERROR,
      'Could not get the Exchange url from environment variable HZN_EXCHANGE_URL or the horizon agent',
    );
  return url.replace(/\/+$/, '');
}

function anaxExchangeUrl(etcDir: string): string | undefined {
  const path = join(etcDir, 'horizon', 'anax.json');
  if (!existsSync(path)) return undefined;
  const parsed = parseJson(readFileSync(path, 'utf8')) as { Edge?: { ExchangeURL?: string } } | undefined;
  return nonEmpty(parsed?.Edge?.ExchangeURL);
}

/** `org/` prepended to `id:secret` unless the id part already names an org (upstream's OrgAndCreds). */
export function orgAndCreds(org: string, creds: string, env: Ctx['env']): string {
  const id = creds.split(':')[0] ?? '';
  if (id.includes('/') || env.USING_API_KEY === '1' || /^a-[A-Za-z0-9]{6}-/.test(creds)) return creds;
  return `${org}/${creds}`;
}

export function requireOrg(ctx: Ctx, flag: string | undefined): string {
  const org = nonEmpty(flag) ?? nonEmpty(ctx.env.HZN_ORG_ID);
  if (!org)
    throw fatal(
      EXIT.CLI_INPUT_ERROR,
      'organization ID must be specified with either the -o flag or HZN_ORG_ID',
    );
  return org;
}

export function requireUserCreds(ctx: Ctx, flag: string | undefined): string {
  const creds = nonEmpty(flag) ?? nonEmpty(ctx.env.HZN_EXCHANGE_USER_AUTH);
  if (!creds)
    throw fatal(
      EXIT.CLI_INPUT_ERROR,
      'exchange user authentication must be specified with either the -u flag or HZN_EXCHANGE_USER_AUTH',
    );
  return creds;
}

/** `-u` > `-n` > HZN_EXCHANGE_USER_AUTH > HZN_EXCHANGE_NODE_AUTH. */
export function requireAnyCreds(ctx: Ctx, user: string | undefined, node: string | undefined): string {
  const creds =
    nonEmpty(user) ??
    nonEmpty(node) ??
    nonEmpty(ctx.env.HZN_EXCHANGE_USER_AUTH) ??
    nonEmpty(ctx.env.HZN_EXCHANGE_NODE_AUTH);
  if (!creds)
    throw fatal(
      EXIT.CLI_INPUT_ERROR,
      'exchange authentication must be specified with one of the following: the -u flag, the -n flag, HZN_EXCHANGE_USER_AUTH or HZN_EXCHANGE_NODE_AUTH',
    );
  return creds;
}

/** `org/x` addresses another org: the org in the id wins. */
export function splitOrg(defaultOrg: string, name: string): { org: string; id: string } {
  const slash = name.indexOf('/');
  return slash > 0 ? { org: name.slice(0, slash), id: name.slice(slash + 1) } : { org: defaultOrg, id: name };
}

export const enc = encodeURIComponent;
