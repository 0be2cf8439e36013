import type { Command } from 'commander';
import { act, type Base, collect, group, leaf, str } from '../../command-kit.ts';
import type { Ctx } from '../../context.ts';
import { EXIT, fatal } from '../../errors.ts';
import { enc, jsonBody } from '../../exchange-client.ts';
import { printJson, sortedDeep } from '../../output.ts';
import { confirmOrExit } from '../../prompt.ts';
import { exchangeSession, type Session } from './session.ts';

type Json = Record<string, unknown>;

/** `hzn exchange org list|create|remove` (docs/hzn-behaviour.md#exchange-commands). */
export function orgCommands(exchange: Command, base: Base): void {
  const org = group(exchange, ['org'], 'List and manage organizations in the Horizon Exchange.');

  const list = leaf(org, ['list', 'ls'], 'Display the organization resource from the Horizon Exchange.')
    .argument('[org]', 'List just this one organization.')
    .option('-l, --long', 'Display detailed info of orgs.');
  act(base, list, async (ctx, [name], opts) => {
    const { client } = await session(ctx, opts, name);
    const path = name ? `orgs/${enc(name)}` : 'orgs';
    const result = await client.expect('GET', path, [200, 404]);
    if (result.status === 404 && name) throw fatal(EXIT.NOT_FOUND, `org '${name}' not found.`);
    const orgs = (
      result.status === 404 ? {} : (jsonBody<{ orgs?: Json }>(result, client.url(path)).orgs ?? {})
    ) as Json;
    if (!name && opts.long !== true) printJson(ctx.io, Object.keys(orgs));
    else printJson(ctx.io, sortedDeep(orgs));
  });

  const create = leaf(org, ['create', 'cr'], 'Create the organization resource in the Horizon Exchange.')
    .argument('<org>', 'Create this organization and assign it to an agbot.')
    .requiredOption('-d, --description <text>', 'Description of the new organization.')
    .option('-l, --label <label>', 'Label for the new organization.')
    .option('-t, --tag <key=value>', 'Tag to add to the organization, repeatable.', collect)
    .option(
      '--heartbeatmin <seconds>',
      'The minimum number of seconds between agent heartbeats to the Exchange.',
    )
    .option(
      '--heartbeatmax <seconds>',
      'The maximum number of seconds between agent heartbeats to the Exchange.',
    )
    .option(
      '--heartbeatadjust <seconds>',
      'The number of seconds to increase the heartbeat interval by when the agent is idle.',
    )
    .option('--max-nodes <n>', 'The maximum number of nodes this organization is allowed to have.')
    .option(
      '-a, --agbot <agbot>',
      'Add the organization to this agbot (org/agbot) so that it will be responsible for deploying services in this org.',
    );
  act(base, create, async (ctx, [name], opts) => {
    const orgId = name as string;
    if (/[_, '?]/.test(orgId))
      throw fatal(
        EXIT.CLI_INPUT_ERROR,
        `Org id ${orgId} cannot contain underscore, comma, blank, single quote or question mark.`,
      );
    const number = (flag: string) => {
      const value = str(opts[flag]);
      if (value === undefined) return 0;
      const n = Number(value);
      if (!Number.isInteger(n) || n < 0)
        throw fatal(
          EXIT.CLI_INPUT_ERROR,
          `--${flag.toLowerCase()} must be a non-negative integer, not ${value}`,
        );
      return n;
    };
    const tags: Record<string, string> = {};
    for (const tag of (opts.tag as string[] | undefined) ?? []) {
      const eq = tag.indexOf('=');
      if (eq <= 0) throw fatal(EXIT.CLI_INPUT_ERROR, `Tag ${tag} must be of the form key=value.`);
      tags[tag.slice(0, eq)] = tag.slice(eq + 1);
    }
    const { client } = await session(ctx, opts, orgId);
    const body = {
      label: str(opts.label) ?? orgId,
      description: str(opts.description),
      ...(Object.keys(tags).length > 0 ? { tags } : {}),
      heartbeatIntervals: {
        minInterval: number('heartbeatmin'),
        maxInterval: number('heartbeatmax'),
        intervalAdjustment: number('heartbeatadjust'),
      },
      limits: { maxNodes: number('maxNodes') },
    };
    await client.expect('POST', `orgs/${enc(orgId)}`, [201], body);
    ctx.io.out(`Organization ${orgId} is successfully added to the Exchange.\n`);
    const agbot = str(opts.agbot) ?? (await firstAgbot({ client, org: orgId }));
    if (!agbot) {
      ctx.io.out('No agbot found in the Exchange.\n');
      return;
    }
    const [agbotOrg, agbotId] = agbot.includes('/') ? agbot.split('/', 2) : [orgId, agbot];
    const base = `orgs/${enc(agbotOrg as string)}/agbots/${enc(agbotId as string)}`;
    await client.expect('POST', `${base}/deployment/patterns`, [201, 409], {
      patternOrgid: orgId,
      pattern: '*',
      nodeOrgid: orgId,
    });
    await client.expect('POST', `${base}/deployment/policies`, [201, 409], {
      businessPolOrgid: orgId,
      businessPol: '*',
      nodeOrgid: orgId,
    });
    ctx.io.out(`Agbot ${agbotOrg}/${agbotId} is responsible for deploying services in org ${orgId}\n`);
    ctx.io.out('Note: this Exchange has no MMS (HZN_FSS_CSSURL): the organization is not added to MMS.\n');
  });

  const remove = leaf(org, ['remove', 'rm'], 'Remove an organization resource from the Horizon Exchange.')
    .argument('<org>', 'The organization to remove.')
    .option('-f, --force', 'Skip the are you sure prompt.');
  act(base, remove, async (ctx, [name], opts) => {
    const { client } = await session(ctx, opts, name);
    await confirmOrExit(
      ctx,
      `Are you sure you want to remove organization ${name} from the Horizon Exchange?`,
      opts.force === true,
    );
    const result = await client.expect('DELETE', `orgs/${enc(name as string)}`, [204, 404]);
    if (result.status === 404) throw fatal(EXIT.NOT_FOUND, `org '${name}' not found.`);
  });
}

/** org commands need no -o: the credentials' org defaults to the org named on the command line. */
function session(ctx: Ctx, opts: Record<string, unknown>, name: string | undefined): Promise<Session> {
  const org = str(opts.org) ?? ctx.env.HZN_ORG_ID ?? name ?? 'root';
  return exchangeSession(ctx, { ...(opts as Record<string, string>), org }, 'user');
}

/** The first agbot the caller can see: GET /orgs, then each org's agbots. */
async function firstAgbot({ client }: Session): Promise<string | undefined> {
  const orgs = await client.call('GET', 'orgs');
  if (orgs.status !== 200) return undefined;
  for (const org of Object.keys((JSON.parse(orgs.text) as { orgs?: Json }).orgs ?? {})) {
    const agbots = await client.call('GET', `orgs/${enc(org)}/agbots`);
    if (agbots.status !== 200) continue;
    const first = Object.keys((JSON.parse(agbots.text) as { agbots?: Json }).agbots ?? {})[0];
    if (first) return first;
  }
  return undefined;
}
