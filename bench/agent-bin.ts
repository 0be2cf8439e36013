/**
 * `npm run bench:agent-bin` (issue 27): the single executables of `npm run build:bin`.
 * - their sizes;
 * - first start → `/status` answering: a fresh data directory each time, from spawn to the first
 *   200 (the agent relaunches itself once with its V8 flags, as on a device), median of 5, beside
 *   `node dist/agent.mjs`;
 * - the agent's RSS registered and idle, and with 10 running agreements, run from the executable
 *   (bench/agent-workloads.ts: real Exchange, podman at DOCKER_HOST, a scripted agbot).
 * Builds dist/bin and dist/agent.mjs when missing.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../scripts/local/ports.ts';
import { runAgentWorkloadsBench } from './agent-workloads.ts';
import { median } from './stats.ts';

const STARTS = 5;
const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
const executable = join(process.cwd(), 'dist', 'bin', `horizon-agent-linux-${arch}`);
const step = (text: string) => console.log(`[bench] ${text}`);

function ensureBuilt(file: string, script: string): void {
  if (existsSync(file)) return;
  step(`npm run ${script}`);
  const built = spawnSync('npm', ['run', '--silent', script], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(1);
}

/** Milliseconds from spawn to the first 200 of GET /status, with a fresh data directory. */
async function firstStatusMs(command: string[]): Promise<number> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-agent-bin-'));
  const started = performance.now();
  const child = spawn(command[0] as string, command.slice(1), {
    env: {
      ...process.env,
      HZN_AGENT_PORT: String(port),
      HZN_AGENT_DATA_DIR: dataDir,
      HZN_AGENT_LOG_LEVEL: 'warn',
    },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      const ok = await fetch(`http://127.0.0.1:${port}/status`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return Math.round(performance.now() - started);
      if (performance.now() - started > 60_000) throw new Error(`${command.join(' ')}: no /status in 60 s`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function startTimes(command: string[]): Promise<string> {
  const times: number[] = [];
  for (let i = 0; i < STARTS; i++) times.push(await firstStatusMs(command));
  return `${median(times)} ms (min ${Math.min(...times)}, max ${Math.max(...times)})`;
}

ensureBuilt(executable, 'build:bin');
ensureBuilt('dist/agent.mjs', 'build:agent');
const mb = (file: string) => `${(statSync(file).size / 1e6).toFixed(1)} MB`;
const rows: [string, string][] = [
  ['dist/bin/horizon-agent-linux-x64 (agent and `hzn`)', mb('dist/bin/horizon-agent-linux-x64')],
  ['dist/bin/horizon-agent-linux-arm64 (agent and `hzn`)', mb('dist/bin/horizon-agent-linux-arm64')],
];
step(`first start → /status, ${STARTS} times each`);
rows.push([`first start → \`/status\`, executable, median of ${STARTS}`, await startTimes([executable])]);
rows.push([
  `first start → \`/status\`, \`node dist/agent.mjs\`, median of ${STARTS}`,
  await startTimes([process.execPath, 'dist/agent.mjs']),
]);
const figures = await runAgentWorkloadsBench(step, [executable]);
rows.push(['agent RSS from the executable, registered, idle', `${figures.rssMbIdle} MB`]);
rows.push([
  `agent RSS from the executable, ${figures.agreements} running agreements`,
  `${figures.rssMbWithAgreements} MB`,
]);
rows.push(['its command line', `\`${figures.commandLine.replace(/\S*\//, '')}\``]);

console.log('\n| Measure | Figure |\n| --- | ---: |');
for (const [measure, figure] of rows) console.log(`| ${measure} | ${figure} |`);
process.exit(0);
