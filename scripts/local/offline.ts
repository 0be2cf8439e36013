import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { LocalStackError } from './dynamodb-local.ts';
import { httpRequest } from './http-request.ts';
import { type GroupChild, spawnGroup } from './process-group.ts';
import { isRequestLine, logsRequests } from './request-lines.ts';

const require = createRequire(import.meta.url);

export interface Offline extends GroupChild {
  /** Starts copying serverless-offline's output (handler logs, errors; request lines only with EXCHANGE_LOG_REQUESTS=1) to ours. */
  forwardOutput(): void;
}

/** node:http, not fetch: fetch refuses the WHATWG "bad ports" (EXCHANGE_PORT=4190 never became ready). */
async function answers(url: string): Promise<boolean> {
  try {
    const response = await httpRequest(url, { timeoutMs: 2000 });
    return response.status >= 200 && response.status < 300;
  } catch {
    return false;
  }
}

/**
 * Runs `serverless offline start` (with the Node that runs us, so Node 22) in its own process
 * group, and resolves once GET /v1/admin/version answers.
 */
export async function startOffline(options: {
  httpPort: number;
  lambdaPort: number;
  signalsPort: number;
  env: NodeJS.ProcessEnv;
  cwd: string;
  timeoutMs?: number;
  /** Aborting (Ctrl-C while starting) stops the process group and rejects. */
  signal?: AbortSignal;
}): Promise<Offline> {
  const bin = require.resolve('serverless/bin/serverless.js');
  const args = ['offline', 'start', '--httpPort', String(options.httpPort)];
  args.push('--lambdaPort', String(options.lambdaPort), '--websocketPort', String(options.signalsPort));
  args.push('--host', '127.0.0.1');
  const started = spawnGroup(process.execPath, [bin, ...args], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let forwarding = false;
  const requests = logsRequests(options.env);
  for (const [stream, target] of [
    [started.child.stdout, process.stdout],
    [started.child.stderr, process.stderr],
  ] as const) {
    if (!stream) continue;
    createInterface({ input: stream }).on('line', (line) => {
      if (!forwarding) output = `${output}${line}\n`.slice(-20_000);
      else if (requests || !isRequestLine(line)) target.write(`${line}\n`);
    });
  }
  const url = `http://127.0.0.1:${options.httpPort}/v1/admin/version`;
  // A busy machine (a full test run beside it) can take minutes to load 29 functions, so the bound
  // is generous; it only ends a server that never answers.
  const deadline = Date.now() + (options.timeoutMs ?? 600_000);
  let exited = false;
  void started.exited.then(() => {
    exited = true;
  });
  while (!(await answers(url))) {
    if (options.signal?.aborted) {
      await started.stop();
      throw new LocalStackError('stopped while starting');
    }
    if (exited || Date.now() > deadline) {
      // Before the stop, which ends the process either way: whether it exited on its own.
      const why = exited
        ? 'it exited'
        : `no answer within ${Math.round((options.timeoutMs ?? 600_000) / 1000)} s`;
      await started.stop();
      const tail = output.trim().split('\n').slice(-8).join('\n');
      throw new LocalStackError(`serverless-offline did not start (${why}):\n${tail}`);
    }
    await sleep(250);
  }
  return {
    ...started,
    forwardOutput: () => {
      forwarding = true;
    },
  };
}
