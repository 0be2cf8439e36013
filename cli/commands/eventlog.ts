import type { Command } from 'commander';
import { AgentClient } from '../agent-client.ts';
import { act, type Base, collect, group, leaf } from '../command-kit.ts';
import type { Ctx } from '../context.ts';
import { EXIT, fatal } from '../errors.ts';
import { goTime, jsonText, shortTime } from '../output.ts';

interface EventRecord {
  record_id: string;
  timestamp: number;
  severity: string;
  message: string;
  event_code: string;
  source_type: string;
  event_source: unknown;
}

const SELECTOR = /^([^~=><]+)([~=><])(.*)$/;
/** `=v` is equality; the other operators stay in front of the value (`a~v` → `a=~v`). */
const OPERATORS: Record<string, string> = { '=': '', '~': '~', '>': '>', '<': '<' };

/**
 * `a~v` → `a=~v` etc. (docs/hzn-behaviour.md#hzn-eventlog-list); anything else is exit 1. Unlike upstream, name and value
 * are URL-encoded, so a value may hold spaces or `&` (the agent decodes the query either way).
 */
function selectorQuery(selector: string): string {
  const match = SELECTOR.exec(selector);
  if (!match) throw fatal(EXIT.CLI_INPUT_ERROR, `The selection string ${selector} is not valid.`);
  const [, attribute, op, value] = match as unknown as [string, string, string, string];
  return `${encodeURIComponent(attribute)}=${encodeURIComponent(`${OPERATORS[op]}${value}`)}`;
}

/** `hzn eventlog list|surface` (docs/hzn-behaviour.md#hzn-eventlog-list). */
export function eventlogCommands(program: Command, base: Base): void {
  const eventlog = group(
    program,
    ['eventlog', 'ev'],
    'List the event logs for the current or all registrations.',
  );
  const list = leaf(eventlog, ['list', 'ls'], 'List the event logs for the current or all registrations.')
    .option('-a, --all', 'List all the event logs including the previous registrations.')
    .option('-l, --long', 'List event logs with details.')
    .option('-s, --select <selector>', 'Selection string (attribute=value, ~ > < also), repeatable.', collect)
    .option('-f, --tail', 'Keep printing new events, like tail -f.');
  act(base, list, async (ctx, _args, opts) => {
    const selectors = ((opts.select as string[] | undefined) ?? []).map(selectorQuery);
    const path = opts.all === true ? 'eventlog/all' : 'eventlog';
    let lastId: string | undefined;
    for (;;) {
      const query = [...selectors, ...(lastId ? [selectorQuery(`record_id>${lastId}`)] : [])];
      const events = await new AgentClient(ctx).getJson<EventRecord[]>(
        query.length ? `${path}?${query.join('&')}` : path,
      );
      print(ctx, events, opts.long === true);
      if (opts.tail !== true) return;
      lastId = events.at(-1)?.record_id ?? lastId;
      await ctx.io.sleep(1000);
    }
  });

  const surface = leaf(
    eventlog,
    ['surface', 'sf'],
    'List all the active errors that will be shared with the Exchange if the node is online.',
  ).option('-l, --long', 'List the full event logs of the surface errors.');
  act(base, surface, async (ctx, _args, opts) => {
    const errors = await new AgentClient(ctx).getJson<SurfacedError[]>('eventlog/surface');
    const shown = opts.long === true ? await fullEvents(ctx, errors) : errors;
    // anax's DisplayAsJson: no HTML escaping, its encoder's newline and then Printf's.
    ctx.io.out(`${jsonText(shown, { escapeHtml: false })}\n\n`);
  });
}

/** An error the node surfaces (anax persistence.SurfaceError), as the agent and the Exchange hold it. */
export interface SurfacedError {
  record_id: string;
  [field: string]: unknown;
}

/** `-l`: each surfaced error's whole event, read from the agent (anax reads `eventlog/all?record_id=`). */
export async function fullEvents(ctx: Ctx, errors: SurfacedError[]): Promise<unknown[]> {
  const agent = new AgentClient(ctx);
  const full: unknown[] = [];
  for (const error of errors) {
    const [event] = await agent.getJson<EventRecord[]>(
      `eventlog/all?${selectorQuery(`record_id=${error.record_id}`)}`,
    );
    if (!event) throw fatal(EXIT.JSON_PARSING_ERROR, 'Error: event record could not be found');
    full.push(longForm(event));
  }
  return full;
}

const longForm = (e: EventRecord) => ({
  record_id: e.record_id,
  timestamp: goTime(e.timestamp),
  severity: e.severity,
  message: e.message,
  event_code: e.event_code,
  source_type: e.source_type,
  event_source: e.event_source,
});

/** The JSON array without its first `[` line and last `]` line; nothing for an empty list. */
function print(ctx: Ctx, events: EventRecord[], long: boolean): void {
  if (events.length === 0) return;
  const items = long ? events.map(longForm) : events.map((e) => `${shortTime(e.timestamp)}:   ${e.message}`);
  const text = jsonText(items, { escapeHtml: false });
  ctx.io.out(`${text.slice(2, -1)}`);
}
