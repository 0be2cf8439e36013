import type { Command } from 'commander';
import { act, type Base, group, leaf } from '../../command-kit.ts';
import { EXIT, fatal } from '../../errors.ts';
import { enc, jsonBody, splitOrg } from '../../exchange-client.ts';
import { printJson, sortedMap } from '../../output.ts';
import { confirmOrExit } from '../../prompt.ts';
import { exchangeSession } from './session.ts';

type Json = Record<string, unknown>;
const USER_FIELDS = ['password', 'email', 'admin', 'hubAdmin', 'lastUpdated', 'updatedBy', 'apikeys'];

/** `hzn exchange user list|create|remove` (docs/hzn-behaviour.md#exchange-commands). */
export function userCommands(exchange: Command, base: Base): void {
  const user = group(exchange, ['user'], 'List and manage users in the Horizon Exchange.');

  const list = leaf(user, ['list', 'ls'], 'Display the user resource from the Horizon Exchange.')
    .argument(
      '[user]',
      'List this one user. Default is your own user. Only admin users can list other users.',
    )
    .option(
      '-a, --all',
      'List all users in the org. Will only do this if you are a user with admin privilege.',
    )
    .option(
      '-N, --names-only',
      'When listing all of the users, show only the usernames, instead of each entire resource.',
    );
  act(base, list, async (ctx, [name], opts) => {
    const { client, org } = await exchangeSession(ctx, opts, 'user');
    const own = (client.creds ?? '').split(':')[0]?.split('/').pop() ?? '';
    const target = opts.all === true && !name ? { org, id: '' } : splitOrg(org, name ?? own);
    const path = `orgs/${enc(target.org)}/users${target.id ? `/${enc(target.id)}` : ''}`;
    const result = await client.expect('GET', path, [200, 404]);
    if (result.status === 404 && target.id)
      throw fatal(EXIT.NOT_FOUND, `user '${target.id}' not found in org ${target.org}`);
    const users = (
      result.status === 404 ? {} : (jsonBody<{ users?: Json }>(result, client.url(path)).users ?? {})
    ) as Record<string, Json>;
    if (opts.namesOnly === true) {
      printJson(
        ctx.io,
        Object.keys(users).map((k) => k.split('/').pop()),
      );
      return;
    }
    const view = (u: Json) =>
      Object.fromEntries(USER_FIELDS.filter((k) => u[k] !== undefined).map((k) => [k, u[k]]));
    printJson(ctx.io, sortedMap(Object.entries(users).map(([k, v]) => [k, view(v)] as [string, Json])));
  });

  const create = leaf(user, ['create', 'cr'], 'Create the user resource in the Horizon Exchange.')
    .argument('<user>', 'Your username for this user account when creating it in the Horizon exchange.')
    .argument('<pw>', 'Your password for this user account when creating it in the Horizon exchange.')
    .argument('[email]', 'Your email address that should be associated with this user account.')
    .option(
      '-A, --admin',
      'This user should be an administrator, capable of managing all resources in this org of the Exchange.',
    )
    .option(
      '-H, --hubadmin',
      'This user should be a hub administrator, capable of managing orgs in this administration hub.',
    );
  act(base, create, async (ctx, [name, password, email], opts) => {
    const { client, org } = await exchangeSession(ctx, opts, 'user');
    if (opts.hubadmin === true && org !== 'root')
      throw fatal(EXIT.CLI_GENERAL_ERROR, 'Only users in the root org can be hubadmins.');
    if (org === 'root' && opts.hubadmin !== true)
      throw fatal(EXIT.CLI_GENERAL_ERROR, 'Users in the root org must be hubadmins. Omit the -H option.');
    const mail = email ?? (name?.includes('@') ? name : '');
    await client.expect('POST', `orgs/${enc(org)}/users/${enc(name as string)}`, [201], {
      password,
      admin: opts.admin === true,
      hubAdmin: opts.hubadmin === true,
      email: mail,
    });
  });

  const remove = leaf(user, ['remove', 'rm'], 'Remove a user resource from the Horizon Exchange.')
    .argument('<user>', 'The user to remove.')
    .option('-f, --force', 'Skip the are you sure prompt.');
  act(base, remove, async (ctx, [name], opts) => {
    const { client, org } = await exchangeSession(ctx, opts, 'user');
    await confirmOrExit(
      ctx,
      `Warning: this will also delete all Exchange resources owned by this user (nodes, services, patterns, etc). Are you sure you want to remove user ${org}/${name} from the Horizon Exchange?`,
      opts.force === true,
    );
    const result = await client.expect('DELETE', `orgs/${enc(org)}/users/${enc(name as string)}`, [204, 404]);
    if (result.status === 404) throw fatal(EXIT.NOT_FOUND, `user '${name}' not found in org ${org}`);
  });
}
