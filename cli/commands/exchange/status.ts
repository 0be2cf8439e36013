import type { Command } from 'commander';
import { act, type Base, leaf, str } from '../../command-kit.ts';
import { nonEmpty } from '../../config.ts';
import { ExchangeClient, exchangeUrl, jsonBody, orgAndCreds, requireOrg } from '../../exchange-client.ts';
import { printJson, sortedDeep } from '../../output.ts';
import { exchangeSession } from './session.ts';

/** `hzn exchange version` and `hzn exchange status` (docs/hzn-behaviour.md#exchange-commands). */
export function statusAndVersionCommands(exchange: Command, base: Base): void {
  act(
    base,
    leaf(exchange, ['version'], 'Display the version of the Horizon Exchange.'),
    async (ctx, _args, opts) => {
      const org = requireOrg(ctx, str(opts.org));
      const creds =
        nonEmpty(str(opts.userPw)) ??
        nonEmpty(ctx.env.HZN_EXCHANGE_USER_AUTH) ??
        nonEmpty(ctx.env.HZN_EXCHANGE_NODE_AUTH);
      const client = new ExchangeClient(
        ctx,
        exchangeUrl(ctx),
        creds ? orgAndCreds(org, creds, ctx.env) : undefined,
      );
      await client.checkVersion();
      const result = await client.expect('GET', 'admin/version', [200]);
      ctx.io.out(`${result.text.trim()}\n`);
    },
  );

  act(
    base,
    leaf(exchange, ['status'], 'Display the status of the Horizon Exchange.'),
    async (ctx, _args, opts) => {
      const { client } = await exchangeSession(ctx, opts, 'user');
      const result = await client.expect('GET', 'admin/status', [200]);
      printJson(ctx.io, sortedDeep(jsonBody(result, client.url('admin/status'))));
    },
  );
}
