import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { act, type Base, group, leaf, str } from '../command-kit.ts';
import type { Ctx } from '../context.ts';
import { EXIT, ExitRequest, fatal } from '../errors.ts';
import { enc, jsonBody, parseJson } from '../exchange-client.ts';
import type { HttpResult } from '../http.ts';
import { readInputText } from '../input-file.ts';
import { printJson } from '../output.ts';
import { confirmOrExit } from '../prompt.ts';
import { exchangeSession, type Session } from './exchange/session.ts';

/**
 * `hzn secretsmanager|sm secret list|add|read|remove` (docs/hzn-behaviour.md#secrets-manager-commands). Upstream talks to the
 * agbot's secure API (with the non-standard method LIST); here the secrets manager is served by the
 * Exchange, so the same commands map onto `/v1/orgs/{org}/secrets` with standard methods.
 */
export function secretsManagerCommands(program: Command, base: Base): void {
  const sm = group(program, ['secretsmanager', 'sm'], 'List and manage secrets in the secrets manager.')
    .option(
      '-o, --org <org>',
      'The Horizon organization ID. If not specified, HZN_ORG_ID will be used as a default.',
    )
    .option(
      '-u, --user-pw <user:pw>',
      'Horizon Exchange user credentials to query secrets manager resources. The default is HZN_EXCHANGE_USER_AUTH environment variable.',
    );
  const secret = group(sm, ['secret'], 'List and manage secrets in the secrets manager.');

  const list = leaf(secret, ['list', 'ls'], 'Display the names of the secrets in the secrets manager.')
    .argument(
      '[name]',
      'List just this one secret (whether it exists), or the secrets of a user/<u> or node/<n> directory.',
    )
    .option('-a, --listAll', 'List all secrets the caller may see.')
    .option('-n, --nodeId <id>', 'The node id of a node-specific secret.');
  act(base, list, async (ctx, [name], opts) => {
    const session = await exchangeSession(ctx, opts, 'user');
    const full = nodeScoped(trimName(name ?? ''), str(opts.nodeId));
    if (opts.listAll === true) {
      printJson(ctx.io, await names(session, `orgs/${enc(session.org)}/allsecrets`));
      return;
    }
    const dir = directory(full);
    if (dir !== undefined) {
      printJson(ctx.io, await names(session, `orgs/${enc(session.org)}/secrets${dir ? `/${dir}` : ''}`));
      return;
    }
    const exists = await secretExists(session, full);
    printJson(ctx.io, { exists });
    if (!exists) throw new ExitRequest(EXIT.CLI_INPUT_ERROR);
  });

  const add = leaf(secret, ['add'], 'Add a secret to the secrets manager.')
    .argument('<name>', 'The name of the secret.')
    .requiredOption('--secretKey <key>', 'A key for the secret.')
    .option(
      '-d, --secretDetail <value>',
      'The secret details as a string. Either -d or -f must be specified.',
    )
    .option(
      '-f, --secretFile <file>',
      'A file containing the secret details. Specify -f- to read from stdin.',
    )
    .option('-n, --nodeId <id>', 'The node id of a node-specific secret.')
    .option('-O, --overwrite', 'Overwrite the existing secret if it exists in the secrets manager.');
  act(base, add, async (ctx, [name], opts) => {
    const detail = str(opts.secretDetail);
    const file = str(opts.secretFile);
    if ((detail === undefined) === (file === undefined))
      throw fatal(EXIT.CLI_INPUT_ERROR, 'Either --secretDetail or --secretFile must be specified, not both.');
    const value = detail ?? (await secretFileText(ctx, file as string));
    const session = await exchangeSession(ctx, opts, 'user');
    const full = nodeScoped(trimName(name as string), str(opts.nodeId));
    if (await secretExists(session, full))
      await confirmOrExit(
        ctx,
        `Secret "${full}" already exists in the secrets manager. Do you want to overwrite?`,
        opts.overwrite === true,
      );
    const result = await session.client.call('PUT', secretPath(session, full), {
      key: str(opts.secretKey),
      value,
    });
    if (result.status !== 201) throw secretError(session, 'PUT', full, result, 'add');
    ctx.io.out(`Secret "${full}" successfully added to the secrets manager.\n`);
  });

  const read = leaf(secret, ['read'], 'Read the details of a secret stored in the secrets manager.')
    .argument('<name>', 'The name of the secret.')
    .option('-n, --nodeId <id>', 'The node id of a node-specific secret.');
  act(base, read, async (ctx, [name], opts) => {
    const session = await exchangeSession(ctx, opts, 'user');
    const full = nodeScoped(trimName(name as string), str(opts.nodeId));
    const result = await session.client.call('GET', secretPath(session, full));
    if (result.status === 404)
      throw fatal(EXIT.CLI_GENERAL_ERROR, `Secret "${full}" not found in the secrets manager.`);
    if (result.status !== 200) throw secretError(session, 'GET', full, result, 'read');
    const body = jsonBody<{ key?: unknown; value?: unknown }>(
      result,
      session.client.url(secretPath(session, full)),
    );
    printJson(ctx.io, { key: body.key, value: body.value });
  });

  const remove = leaf(secret, ['remove', 'rm'], 'Remove a secret in the secrets manager.')
    .argument('<name>', 'The name of the secret.')
    .option('-n, --nodeId <id>', 'The node id of a node-specific secret.')
    .option('-f, --force', 'Skip the are you sure prompt.');
  act(base, remove, async (ctx, [name], opts) => {
    const session = await exchangeSession(ctx, opts, 'user');
    const full = nodeScoped(trimName(name as string), str(opts.nodeId));
    await confirmOrExit(
      ctx,
      `Are you sure you want to remove secret ${full} from the secrets manager?`,
      opts.force === true,
    );
    const result = await session.client.call('DELETE', secretPath(session, full));
    if (result.status === 404)
      throw fatal(
        EXIT.CLI_GENERAL_ERROR,
        `Secret "${full}" not found in the secrets manager, nothing to remove.`,
      );
    if (result.status !== 204) throw secretError(session, 'DELETE', full, result, 'remove');
    ctx.io.out(`Secret "${full}" successfully deleted from the secrets manager.\n`);
  });
}

const trimName = (name: string) => name.replace(/^\/+|\/+$/g, '');

/** `-n <node>` rewrites the name into the node's tree (docs/hzn-behaviour.md#secrets-manager-commands), unless it already is. */
function nodeScoped(name: string, node: string | undefined): string {
  if (!node || /(^|\/)node\//.test(name)) return name;
  const user = /^user\/([^/]+)(?:\/(.*))?$/.exec(name);
  if (user) return `user/${user[1]}/node/${node}${user[2] ? `/${user[2]}` : ''}`;
  return name ? `node/${node}/${name}` : `node/${node}`;
}

/** The list path of a directory name (`""`, `user/u`, `node/n`, `user/u/node/n`), else undefined. */
export function directory(name: string): string | undefined {
  if (name === '') return '';
  if (/^(user\/[^/]+(\/node\/[^/]+)?|node\/[^/]+)$/.test(name)) return name.split('/').map(enc).join('/');
  return undefined;
}

const secretPath = (session: Session, name: string) =>
  `orgs/${enc(session.org)}/secrets/${name.split('/').map(enc).join('/')}`;

async function names(session: Session, path: string): Promise<unknown> {
  const result = await session.client.call('GET', path);
  if (result.status === 404) return [];
  if (result.status !== 200) throw secretError(session, 'GET', path, result, 'list');
  return jsonBody(result, session.client.url(path)) ?? [];
}

/**
 * Where a secret's name is listed: its `user/<u>/node/<n>/`, `user/<u>/` or `node/<n>/` prefix,
 * else the org's directory (`listPath`), and its name there (`entry`).
 */
export function secretListing(org: string, name: string): { listPath: string; entry: string } {
  const match = /^(user\/[^/]+\/node\/[^/]+|user\/[^/]+|node\/[^/]+)\/(.+)$/.exec(name);
  const dir = match ? (match[1] as string) : '';
  const entry = match ? (match[2] as string) : name;
  return { listPath: `orgs/${enc(org)}/secrets${dir ? `/${directory(dir)}` : ''}`, entry };
}

/** Whether a secret exists, by listing its directory (plain users may list names they may not read). */
async function secretExists(session: Session, name: string): Promise<boolean> {
  const { listPath, entry } = secretListing(session.org, name);
  const listed = await names(session, listPath);
  return Array.isArray(listed) && listed.includes(entry);
}

async function secretFileText(ctx: Ctx, file: string): Promise<string> {
  if (file === '-') return readInputText(ctx, '-');
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw fatal(EXIT.FILE_IO_ERROR, `reading ${file} failed: ${(err as Error).message}`);
  }
}

/** 400 → exit 1, 401/403/503 → exit 7 with the Exchange's message; others as any bad status. */
function secretError(session: Session, method: string, name: string, result: HttpResult, verb: string) {
  const body = parseJson(result.text) as { msg?: string } | string | undefined;
  const text = typeof body === 'string' ? body : (body?.msg ?? result.text);
  if (result.status === 400) return fatal(EXIT.CLI_INPUT_ERROR, text);
  if ([401, 403, 503].includes(result.status))
    return fatal(EXIT.CLI_GENERAL_ERROR, text.replace(' list ', ` ${verb} `));
  return fatal(
    EXIT.HTTP_ERROR,
    `bad HTTP code ${result.status} from ${method} ${session.client.url(secretPath(session, name))}: ${text}`,
  );
}
