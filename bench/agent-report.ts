import { type AgentBenchFigures, EVENTS, type Rss, TARGETS } from './agent.ts';

const mark = (ok: boolean) => (ok ? 'yes' : '**no**');
const mb = (value: number) => `${value} MB`;

/** The "Node agent" section of docs/benchmarks.md. */
export function agentMarkdown(f: AgentBenchFigures): string[] {
  const memory = (label: string, r: Rss, target: boolean) =>
    `| ${label} | ${mb(r.totalMb)} | ${mb(r.anonMb)} | ${mb(r.fileMb)} | ${target ? `≤ ${TARGETS.rssMb} MB: ${mark(r.totalMb <= TARGETS.rssMb)}` : ''} |`;
  return [
    '## Node agent',
    '',
    `The shipped bundle (\`dist/agent.mjs\`, ${Math.round(f.bundleBytes / 1024)} KB), started as \`node dist/agent.mjs\`, re-executes`,
    'itself with its V8 options (agent/relaunch.ts, same pid): the process measured ran as',
    `\`${f.commandLine}\`. It talks to an in-memory fake`,
    'Exchange. Resident memory from /proc: private = anonymous memory, file-backed = mostly pages of',
    'the node binary.',
    '',
    '| Resident memory | Total | Private | File-backed | Target |',
    '|---|---:|---:|---:|---|',
    memory('After start (node registered)', f.rssAfterStart, true),
    memory(
      `After ${EVENTS.toLocaleString('en')} events (${f.eventCount.toLocaleString('en')} listed)`,
      f.rssAfter10kEvents,
      true,
    ),
    memory('After the GET load below', f.rssAfterLoad, false),
    '',
    `The events are written through the API (\`DELETE /node/userinput\`, 10 clients): ${f.eventWritesPerSecond} requests/s,`,
    'each one an Exchange round trip and a durable SQLite commit.',
    '',
    `GET load: 10 concurrent clients, ${f.durationSeconds} s per path, with the ${f.eventCount.toLocaleString('en')} events stored.`,
    '',
    '| Request | Requests/s | p50 latency | p99 latency | Non-2xx | Target p99 |',
    '|---|---:|---:|---:|---:|---|',
    ...f.load.map((l) => {
      const target = TARGETS.p99Ms.get(l.path);
      const verdict =
        target === undefined ? '' : `≤ ${target} ms: ${mark(l.p99Ms <= target && l.non2xx === 0)}`;
      return `| \`GET ${l.path}\` | ${l.requestsPerSecond} | ${l.p50Ms} ms | ${l.p99Ms} ms | ${l.non2xx} | ${verdict} |`;
    }),
    '',
  ];
}
