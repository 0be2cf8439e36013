import type { Command } from 'commander';
import { AgentClient } from '../agent-client.ts';
import { act, type Base, group, leaf } from '../command-kit.ts';
import { EXIT, fatal } from '../errors.ts';
import { goTime } from '../output.ts';
import { printAgreements } from './agreement-list.ts';

type Json = Record<string, unknown>;
interface AgreementsBody {
  agreements?: { active?: Json[]; archived?: Json[] };
}

/** `hzn agreement list|cancel` (docs/hzn-behaviour.md#hzn-agreement). */
export function agreementCommands(program: Command, base: Base): void {
  const agreement = group(program, ['agreement', 'ag'], 'List or manage the active or archived agreements.');

  const list = leaf(agreement, ['list', 'ls'], 'List the active or archived agreements.')
    .argument('[agreement-id]', 'Show the whole agreement with this id.')
    .option('-r, --archived', 'List archived agreements instead of the active ones.');
  act(base, list, async (ctx, [id], opts) => {
    const archived = opts.archived === true;
    const agreements = await loadAgreements(new AgentClient(ctx), archived);
    printAgreements(ctx, agreements, id, (a) => agreementView(a, archived));
  });

  const cancel = leaf(agreement, ['cancel', 'can'], 'Cancel 1 or all of the active agreements.')
    .argument('[agreement-id]', 'The agreement to cancel.')
    .option('-a, --all', 'Cancel all of the current agreements.');
  act(base, cancel, async (ctx, [id], opts) => {
    const agent = new AgentClient(ctx);
    if (!id && opts.all !== true)
      throw fatal(EXIT.CLI_INPUT_ERROR, 'either an agreement ID or -a must be specified.');
    const ids = id ? [id] : (await loadAgreements(agent, false)).map((a) => String(a.current_agreement_id));
    if (ids.length === 0) {
      ctx.io.out('No active agreements to cancel.\n');
      return;
    }
    for (const one of ids) {
      ctx.io.out(`Canceling agreement ${one} ...\n`);
      await agent.expect('DELETE', `agreement/${encodeURIComponent(one)}`, [200, 204]);
    }
  });
}

async function loadAgreements(agent: AgentClient, archived: boolean): Promise<Json[]> {
  const body = await agent.getJson<AgreementsBody>('agreement');
  const list = archived ? body.agreements?.archived : body.agreements?.active;
  if (!Array.isArray(list))
    throw fatal(EXIT.HTTP_ERROR, `no ${archived ? 'archived' : 'active'} agreements in the agent's answer`);
  return list;
}

/** Upstream's summary of one agreement: its field order, times as Go prints them. */
function agreementView(a: Json, archived: boolean): Json {
  const t = (key: string) => goTime(typeof a[key] === 'number' ? (a[key] as number) : 0);
  const workload = (a.workload_to_run ?? {}) as Json;
  const view: Json = {
    name: a.name,
    current_agreement_id: a.current_agreement_id,
    consumer_id: a.consumer_id,
    agreement_creation_time: t('agreement_creation_time'),
    agreement_accepted_time: t('agreement_accepted_time'),
    agreement_finalized_time: t('agreement_finalized_time'),
    agreement_execution_start_time: t('agreement_execution_start_time'),
    agreement_data_received_time: t('agreement_data_received_time'),
    agreement_protocol: a.agreement_protocol,
    workload_to_run: { url: workload.url, org: workload.org, version: workload.version, arch: workload.arch },
  };
  if (archived) {
    view.agreement_terminated_time = t('agreement_terminated_time');
    view.terminated_reason = a.terminated_reason;
    view.terminated_description = a.terminated_description;
  }
  return view;
}
