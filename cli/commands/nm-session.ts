import { type Options, str } from '../command-kit.ts';
import { nonEmpty } from '../config.ts';
import type { Ctx } from '../context.ts';
import { EXIT, fatal } from '../errors.ts';
import { ExchangeClient, orgAndCreds, requireOrg, requireUserCreds } from '../exchange-client.ts';

/**
 * The model management service (the object store, docs/nmp.md#the-object-store) as `hzn nm` and
 * `hzn exchange nmp add` call it: `HZN_FSS_CSSURL` (this Exchange's `<exchange URL>/css`), the
 * org (-o, HZN_ORG_ID) and user credentials (-u, HZN_EXCHANGE_USER_AUTH) as upstream's.
 */
export function mmsClient(ctx: Ctx, creds: string | undefined): ExchangeClient {
  const css = nonEmpty(ctx.env.HZN_FSS_CSSURL);
  if (!css)
    throw fatal(
      EXIT.CLI_GENERAL_ERROR,
      'Could not get the model management service url from environment variable HZN_FSS_CSSURL or the horizon agent',
    );
  return new ExchangeClient(ctx, css.replace(/\/+$/, ''), creds);
}

export function mmsSession(ctx: Ctx, opts: Options): { client: ExchangeClient; org: string } {
  const org = requireOrg(ctx, str(opts.org));
  const creds = orgAndCreds(org, requireUserCreds(ctx, str(opts.userPw)), ctx.env);
  return { client: mmsClient(ctx, creds), org };
}
