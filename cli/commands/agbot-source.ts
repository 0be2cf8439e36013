import { type Options, str } from '../command-kit.ts';
import { nonEmpty } from '../config.ts';
import type { Ctx } from '../context.ts';
import { EXIT, fatal } from '../errors.ts';
import {
  ExchangeClient,
  enc,
  exchangeUrl,
  jsonBody,
  orgAndCreds,
  requireUserCreds,
} from '../exchange-client.ts';
import { send, TransportError } from '../http.ts';

type Json = Record<string, unknown>;
/** An answer: its status, and its body when the status was one of those expected. */
export interface Answer<T> {
  status: number;
  body?: T;
}

/**
 * Where `hzn agbot ...` reads (docs/hzn.md "hzn agbot"): the standalone agbot's status API at
 * `HZN_AGBOT_URL` when set (upstream's local agbot API), else the Exchange's read-only
 * `agbotstatus` routes about the in-stack agbot, with the user's credentials.
 */
export interface AgbotSource {
  agreements(archived: boolean): Promise<Json[]>;
  /** `GET /policy[/{org}]`: org → names. */
  policyNames(org: string | undefined): Promise<Answer<Record<string, string[]>>>;
  /** `GET /policy/{org}/{name}`. */
  policy(org: string, name: string): Promise<Answer<Json>>;
}

export function agbotSource(ctx: Ctx, opts: Options): AgbotSource {
  const agbotUrl = nonEmpty(ctx.env.HZN_AGBOT_URL);
  return agbotUrl ? standalone(ctx, agbotUrl.replace(/\/+$/, '')) : inStack(ctx, opts);
}

function standalone(ctx: Ctx, base: string): AgbotSource {
  const get = async <T>(path: string, ok: number[]): Promise<Answer<T>> => {
    const url = `${base}/${path}`;
    try {
      const result = await send(ctx, 'GET', url);
      if (!ok.includes(result.status))
        throw fatal(EXIT.HTTP_ERROR, `bad HTTP code from GET ${url}: ${result.status}`);
      return { status: result.status, ...(result.status === 200 ? { body: jsonBody<T>(result, url) } : {}) };
    } catch (err) {
      if (!(err instanceof TransportError)) throw err;
      throw fatal(
        EXIT.HTTP_ERROR,
        `Can't connect to the Horizon agreement bot API to run GET ${url}. Check that HZN_AGBOT_URL (${base}) is the URL of a running agbot's status API. Specific error is: ${err.message}`,
      );
    }
  };
  return {
    async agreements(archived) {
      const body = (await get<{ agreements?: { active?: Json[]; archived?: Json[] } }>('agreement', [200]))
        .body;
      return listOf(body?.agreements, archived);
    },
    policyNames: (org) => get(org === undefined ? 'policy' : `policy/${enc(org)}`, [200, 400, 404]),
    policy: (org, name) => get(`policy/${enc(org)}/${enc(name)}`, [200, 400, 404]),
  };
}

function inStack(ctx: Ctx, opts: Options): AgbotSource {
  const creds = requireUserCreds(ctx, str(opts.userPw));
  const credsOrg = creds.includes('/') ? creds.slice(0, creds.indexOf('/')) : undefined;
  const defaultOrg = nonEmpty(str(opts.org)) ?? nonEmpty(ctx.env.HZN_ORG_ID) ?? credsOrg;
  const orgOr = (org: string | undefined) => {
    const chosen = org ?? defaultOrg;
    if (!chosen)
      throw fatal(
        EXIT.CLI_INPUT_ERROR,
        'organization ID must be specified with either the -o flag or HZN_ORG_ID',
      );
    return chosen;
  };
  const client = new ExchangeClient(ctx, exchangeUrl(ctx), orgAndCreds(orgOr(undefined), creds, ctx.env));
  const get = async <T>(path: string, ok: number[]): Promise<Answer<T>> => {
    const result = await client.expect('GET', path, ok);
    return {
      status: result.status,
      ...(result.status === 200 ? { body: jsonBody<T>(result, client.url(path)) } : {}),
    };
  };
  return {
    async agreements(archived) {
      const path = `orgs/${enc(orgOr(undefined))}/agbotstatus/agreements${archived ? '?archived=true' : ''}`;
      const body = (await get<{ agreements?: { active?: Json[]; archived?: Json[] } }>(path, [200])).body;
      return listOf(body?.agreements, archived);
    },
    policyNames: (org) => get(`orgs/${enc(orgOr(org))}/agbotstatus/policies`, [200]),
    policy: (org, name) => get(`orgs/${enc(org)}/agbotstatus/policies/${enc(name)}`, [200, 404]),
  };
}

function listOf(agreements: { active?: Json[]; archived?: Json[] } | undefined, archived: boolean): Json[] {
  const list = archived ? agreements?.archived : agreements?.active;
  if (!Array.isArray(list))
    throw fatal(
      EXIT.HTTP_ERROR,
      `horizon api agreement output did not include '${archived ? 'archived' : 'active'}' key`,
    );
  return list;
}
