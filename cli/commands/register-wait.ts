import type { AgentClient } from '../agent-client.ts';
import type { Ctx } from '../context.ts';
import { parseJson } from '../exchange-client.ts';

type Json = Record<string, unknown>;

const POLL_MS = 3000;
/** Upstream counts a service started once it has been executing on 5 consecutive polls. */
const STABLE_POLLS = 5;

/**
 * `register -s`: every 3 s prints the progress of the watched service(s), from the agent's active
 * agreements (execution start time) and service instances; a timeout prints the event log's errors
 * and still succeeds, as upstream.
 */
export async function waitForServices(
  ctx: Ctx,
  agent: AgentClient,
  watch: { service: string; serviceOrg: string; timeoutSeconds: number },
): Promise<void> {
  const deadline = ctx.io.now() + watch.timeoutSeconds * 1000;
  const stable = new Map<string, number>();
  for (;;) {
    const running = await runningServices(agent);
    const names = watch.service === '*' ? [...running.keys()] : [`${watch.serviceOrg}/${watch.service}`];
    ctx.io.out('Status of the services you are watching:\n');
    let done = names.length > 0;
    for (const name of names) {
      const progress = running.get(name);
      const count = progress === 'executing' ? (stable.get(name) ?? 0) + 1 : 0;
      stable.set(name, count);
      const text =
        count >= STABLE_POLLS ? 'Success' : `Progress so far: ${progress ?? 'waiting for an agreement'}`;
      ctx.io.out(`\t${name} \t${text}\n`);
      if (count < STABLE_POLLS) done = false;
    }
    if (done) return;
    if (ctx.io.now() >= deadline) return timedOut(ctx, agent, names);
    await ctx.io.sleep(POLL_MS);
  }
}

/** `org/url` → `agreement formed` or `executing`, from the active agreements. */
async function runningServices(agent: AgentClient): Promise<Map<string, string>> {
  const result = await agent.call('GET', 'agreement');
  const body = parseJson(result.text) as { agreements?: { active?: Json[] } } | undefined;
  const map = new Map<string, string>();
  for (const a of body?.agreements?.active ?? []) {
    const w = (a.workload_to_run ?? {}) as Json;
    const name = `${String(w.org)}/${String(w.url)}`;
    const executing =
      typeof a.agreement_execution_start_time === 'number' && a.agreement_execution_start_time > 0;
    if (executing || !map.has(name))
      map.set(name, executing ? 'executing' : 'agreement formed, waiting for execution');
  }
  return map;
}

async function timedOut(ctx: Ctx, agent: AgentClient, names: string[]): Promise<void> {
  ctx.io.out(
    `Timeout waiting for service ${names.join(', ') || 'of the pattern'} to successfully start. Analyzing possible reasons for the timeout...\n`,
  );
  const result = await agent.call('GET', 'eventlog?severity=error');
  const events = (parseJson(result.text) as { message?: string }[] | undefined) ?? [];
  if (events.length === 0)
    ctx.io.out(
      "No errors in the event log. The service may still be starting: run 'hzn agreement list' and 'hzn eventlog list'.\n",
    );
  for (const e of events.slice(-10)) ctx.io.out(`  ${e.message}\n`);
}
