import { AgentClient } from '../agent-client.ts';
import { type Options, str } from '../command-kit.ts';
import { nonEmpty } from '../config.ts';
import type { Ctx } from '../context.ts';
import { EXIT, fatal } from '../errors.ts';
import { ExchangeClient, jsonBody, orgAndCreds, requireOrg, requireUserCreds } from '../exchange-client.ts';

/**
 * The model management service (the object store, docs/nmp.md#the-object-store) as `hzn nm` and
 * `hzn exchange nmp add` call it: `HZN_FSS_CSSURL` (this Exchange's `<exchange URL>/css`), else
 * the one the local agent uses (`mms_api` of its GET /status, as upstream's hzn asks), the org
 * (-o, HZN_ORG_ID) and user credentials (-u, HZN_EXCHANGE_USER_AUTH) as upstream's.
 */
export async function mmsClient(ctx: Ctx, creds: string | undefined): Promise<ExchangeClient> {
  const css = nonEmpty(ctx.env.HZN_FSS_CSSURL) ?? (await agentMmsUrl(ctx));
  if (!css)
    throw fatal(
      EXIT.CLI_GENERAL_ERROR,
      'Could not get the model management service url from environment variable HZN_FSS_CSSURL or the horizon agent',
    );
  return new ExchangeClient(ctx, css.replace(/\/+$/, ''), creds);
}

export async function mmsSession(ctx: Ctx, opts: Options): Promise<{ client: ExchangeClient; org: string }> {
  const org = requireOrg(ctx, str(opts.org));
  const creds = orgAndCreds(org, requireUserCreds(ctx, str(opts.userPw)), ctx.env);
  return { client: await mmsClient(ctx, creds), org };
}

/** The agent's object store address; none when no agent answers (the caller says what to set). */
async function agentMmsUrl(ctx: Ctx): Promise<string | undefined> {
  try {
    const status = await new AgentClient(ctx).expect('GET', 'status', [200]);
    const mms = (jsonBody(status, 'status') as { configuration?: { mms_api?: unknown } }).configuration
      ?.mms_api;
    return typeof mms === 'string' ? nonEmpty(mms) : undefined;
  } catch {
    return undefined;
  }
}
