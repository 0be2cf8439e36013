import type { Command } from 'commander';
import { act, type Base, group, leaf } from '../command-kit.ts';
import { EXIT, fatal } from '../errors.ts';
import { goTime, printJson } from '../output.ts';
import { agbotSource } from './agbot-source.ts';
import { printAgreements } from './agreement-list.ts';

type Json = Record<string, unknown>;

/**
 * `hzn agbot agreement list` and `hzn agbot policy list` (docs/hzn.md "hzn agbot"): upstream's
 * commands and output shapes, reading the standalone agbot (HZN_AGBOT_URL) or the Exchange's
 * status of the in-stack agbot.
 */
export function agbotCommands(program: Command, base: Base): void {
  const agbot = group(program, ['agbot'], 'List and manage Horizon agreement bot resources.')
    .option(
      '-u, --user-pw <user:pw>',
      'Exchange user credentials, when reading the in-stack agbot through the Exchange (default HZN_EXCHANGE_USER_AUTH).',
    )
    .option(
      '-o, --org <org>',
      'The organization whose policies and agreements to read through the Exchange (default HZN_ORG_ID, else the org of the credentials).',
    );
  const agreement = group(
    agbot,
    ['agreement', 'ag'],
    'List or manage the active or archived agreements this Horizon agreement bot has with edge nodes.',
  );
  const list = leaf(
    agreement,
    ['list', 'ls'],
    'List the active or archived agreements this Horizon agreement bot has with edge nodes.',
  )
    .argument('[agreement]', 'Show the whole agreement with this id.')
    .option('-r, --archived', 'List archived agreements instead of the active agreements.');
  act(base, list, async (ctx, [id], opts) => {
    const archived = opts.archived === true;
    const agreements = await agbotSource(ctx, opts).agreements(archived);
    printAgreements(ctx, agreements, id, (a) => agreementView(a, archived));
  });

  const policy = group(agbot, ['policy', 'pol'], 'List the policies this Horizon agreement bot hosts.');
  const policyList = leaf(policy, ['list', 'ls'], 'List policies this Horizon agreement bot hosts.')
    .argument('[org]', 'The organization the policy belongs to (or org/name).')
    .argument('[name]', 'The policy name.');
  act(base, policyList, async (ctx, [orgArg, nameArg], opts) => {
    const [org, name] = orgArg?.includes('/') && !nameArg ? splitOnce(orgArg) : [orgArg, nameArg];
    const source = agbotSource(ctx, opts);
    if (!name) {
      const answer = await source.policyNames(org);
      if (answer.body) printJson(ctx.io, answer.body);
      else ctx.io.out(`Error: The organization '${org}' does not exist.\n`);
      return;
    }
    if (!org) throw fatal(EXIT.CLI_INPUT_ERROR, 'the organization of the policy must be given');
    const answer = await source.policy(org, name);
    if (answer.body) printJson(ctx.io, answer.body);
    else
      ctx.io.out(
        `Error: Either the organization '${org}' does not exist or the policy '${name}' is not hosted by this agbot.\n`,
      );
  });
}

const splitOnce = (full: string): [string, string] => {
  const at = full.indexOf('/');
  return [full.slice(0, at), full.slice(at + 1)];
};

/** Upstream's summary of an agbot agreement (anax cli/agreementbot): its field order, times as Go prints them. */
function agreementView(a: Json, archived: boolean): Json {
  const t = (key: string) => goTime(typeof a[key] === 'number' ? (a[key] as number) : 0);
  const view: Json = {
    current_agreement_id: a.current_agreement_id,
    org: a.org,
    edge_node_id: a.device_id,
    agreement_protocol: a.agreement_protocol,
    agreement_inception_time: t('agreement_inception_time'),
    agreement_creation_time: t('agreement_creation_time'),
    agreement_finalized_time: t('agreement_finalized_time'),
    data_verification_time: t('data_verification_time'),
    data_notification_sent: t('data_notification_sent'),
    policy_name: a.policy_name,
    pattern: a.pattern,
  };
  if (archived) {
    view.agreement_timeout = t('agreement_timeout');
    view.terminated_reason = a.terminated_reason;
    view.terminated_description = a.terminated_description;
  }
  return view;
}
