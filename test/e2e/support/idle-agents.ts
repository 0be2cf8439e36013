import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Credentials, Http } from '#test/support/http';
import { freePort, waitForPort } from '../../../scripts/local/ports.ts';
import type { ChannelProxy, ExchangeWatch } from './signal-faults.ts';

/**
 * Real agents (`dist/agent.mjs`, one process each) at their default settings, the signal channel
 * on and its hourly poll, registered with a node policy and a trusted signing key, for the tests
 * and benchmarks that need idle nodes (test/e2e/signals-faults.test.ts, bench/signals-faults.ts).
 * They reach the Exchange through `exchange` (an ExchangeWatch), which tells when each has made a
 * poll with nothing for it while its channel was open: from then on it polls only hourly.
 */
export interface IdleAgent {
  /** `org/id`. */
  node: string;
  id: string;
  port: number;
  /** The agent's events of one code (`received_proposal`...), from its own API. */
  events(code: string): Promise<{ event_code: string; timestamp: number }[]>;
}

export interface IdleAgents {
  agents: IdleAgent[];
  stop(): Promise<void>;
}

export function buildAgent(): void {
  const build = spawnSync('npm', ['run', '--silent', 'build:agent'], { encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`npm run build:agent failed: ${build.stderr}`);
}

export async function startIdleAgents(options: {
  count: number;
  org: string;
  /** Makes the nodes in the Exchange (an org admin or the nodes' owner). */
  owner: Credentials;
  /** The Exchange without the watch (for the node records). */
  http: Http;
  exchange: ExchangeWatch;
  properties: { name: string; value: string }[];
  signerPem: string;
  prefix?: string;
}): Promise<IdleAgents> {
  const children: ChildProcess[] = [];
  const dirs: string[] = [];
  const agents: IdleAgent[] = [];
  const stop = async () => {
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      ),
    );
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 1; i <= options.count; i++) {
      const id = `${options.prefix ?? 'idle'}${i}`;
      const token = `${id}-token-0123456789`;
      const put = await options.http('PUT', `/v1/orgs/${options.org}/nodes/${id}`, {
        auth: options.owner,
        body: { name: id, token, pattern: '', publicKey: '', arch: 'amd64' },
      });
      if (put.status !== 201) throw new Error(`PUT node ${id}: ${put.status} ${put.text}`);
      const port = await freePort();
      const dir = mkdtempSync(join(tmpdir(), 'idle-agent-'));
      dirs.push(dir);
      const child = spawn(process.execPath, ['dist/agent.mjs'], {
        env: {
          PATH: process.env.PATH,
          HZN_AGENT_PORT: String(port),
          HZN_AGENT_DATA_DIR: dir,
          HZN_EXCHANGE_URL: `${options.exchange.url}/v1`,
          HZN_AGENT_LOG_LEVEL: 'error',
          // No container engine: the agreement is accepted, its workload is not started.
          DOCKER_HOST: 'unix:///nonexistent/docker.sock',
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      children.push(child);
      await waitForPort(port, 30_000);
      const call = async (method: string, path: string, body: unknown, type = 'application/json') => {
        const res = await fetch(`http://127.0.0.1:${port}${path}`, {
          method,
          body: typeof body === 'string' ? body : JSON.stringify(body),
          headers: { 'content-type': type },
        });
        if (res.status >= 300)
          throw new Error(`agent ${id}: ${method} ${path} → ${res.status} ${await res.text()}`);
      };
      await call('POST', '/node', { id, organization: options.org, token, name: id });
      await call('POST', '/node/policy', { properties: options.properties, constraints: [] });
      await call('PUT', '/trust/signer.pem', options.signerPem, 'text/plain');
      await call('PUT', '/node/configstate', { state: 'configured' });
      agents.push({
        node: `${options.org}/${id}`,
        id,
        port,
        events: async (code) => {
          const res = await fetch(`http://127.0.0.1:${port}/eventlog?event_code=${code}`);
          return (await res.json()) as { event_code: string; timestamp: number }[];
        },
      });
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { agents, stop };
}

/**
 * Whether `node` now polls only hourly: its last poll, made after its channel opened, held nothing
 * about it (the agent's pace: an idle round with the channel open waits
 * HZN_AGENT_SIGNALLED_POLL_SECONDS).
 */
export function isIdle(node: string, channel: ChannelProxy, exchange: ExchangeWatch): boolean {
  const opened = channel.openedAt(node);
  const last = exchange.polls(node).at(-1);
  return opened !== undefined && last !== undefined && last.startedAt > opened && !last.aboutNode;
}

/** Waits until every agent is idle (see isIdle); `deadlineMs` only bounds a failure. */
export async function waitUntilIdle(
  agents: IdleAgent[],
  channel: ChannelProxy,
  exchange: ExchangeWatch,
  deadlineMs: number,
): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const busy = agents.filter((agent) => !isIdle(agent.node, channel, exchange));
    if (busy.length === 0) return;
    if (Date.now() > deadline)
      throw new Error(`not idle within ${deadlineMs} ms: ${busy.map((agent) => agent.node).join(', ')}`);
    await sleep(200);
  }
}
