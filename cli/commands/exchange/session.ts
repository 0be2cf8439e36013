import { type Options, str } from '../../command-kit.ts';
import type { Ctx } from '../../context.ts';
import {
  ExchangeClient,
  exchangeUrl,
  orgAndCreds,
  requireAnyCreds,
  requireOrg,
  requireUserCreds,
} from '../../exchange-client.ts';

/**
 * The Exchange client of one `hzn exchange ...` command (docs/hzn-behaviour.md#exit-codes-and-prompts, #exchange-credentials): the org,
 * credentials by the command's rule (`user`: -u or HZN_EXCHANGE_USER_AUTH; `any`: also node
 * credentials from -n or HZN_EXCHANGE_NODE_AUTH), then upstream's version check.
 */
export interface Session {
  client: ExchangeClient;
  org: string;
}

export async function exchangeSession(ctx: Ctx, opts: Options, creds: 'user' | 'any'): Promise<Session> {
  const org = requireOrg(ctx, str(opts.org));
  const given =
    creds === 'user'
      ? requireUserCreds(ctx, str(opts.userPw))
      : requireAnyCreds(ctx, str(opts.userPw), str(opts.nodeIdTok) ?? str(opts.idToken));
  const client = new ExchangeClient(ctx, exchangeUrl(ctx), orgAndCreds(org, given, ctx.env));
  await client.checkVersion();
  return { client, org };
}
