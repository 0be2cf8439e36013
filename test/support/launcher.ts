import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { freePort, isPortFree } from '../../scripts/local/ports.ts';

/**
 * `npm start` as a child process, as the npm script runs it (`node --import tsx`: one process, so
 * a signal reaches it directly; tsx's own CLI relays a signal to a child and kills it when the
 * child does not answer within 30 ms, which a loaded machine misses), with its output collected.
 */
export interface Launched {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
  waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray>;
}

/** The variables the test run sets for itself; the launcher must not inherit them. */
const OWN_VARIABLES = ['DYNAMODB_ENDPOINT', 'EXCHANGE_TABLE', 'EXCHANGE_ROOT_PW', 'EXCHANGE_CONFIG_FILE'];

export function launch(env: Record<string, string>): Launched {
  const base = { ...process.env };
  for (const name of OWN_VARIABLES) delete base[name];
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start-local.ts'], {
    cwd: process.cwd(),
    // The agbot's status port: an ephemeral one, so launcher tests can run side by side.
    env: { ...base, HZN_AGBOT_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  /** Waiters for a pattern: each checked when output arrives, failed when the process exits. */
  const waiters = new Set<() => void>();
  const collect = (chunk: Buffer) => {
    text += chunk;
    for (const check of waiters) check();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  let ended = false;
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      ended = true;
      for (const check of waiters) check();
      resolve(code);
    }),
  );
  /** Resolves on the output matching `pattern`; the deadline only bounds a failure. */
  const waitFor = (pattern: RegExp, timeoutMs: number) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const finish = (outcome: () => void) => {
        waiters.delete(check);
        clearTimeout(timer);
        outcome();
      };
      const fail = (why: string) =>
        finish(() => reject(new Error(`launcher never printed ${pattern} (${why}); output:\n${text}`)));
      const check = () => {
        const match = pattern.exec(text);
        if (match) finish(() => resolve(match));
        else if (ended) fail('it exited');
      };
      const timer = setTimeout(() => fail(`not within ${timeoutMs} ms`), timeoutMs);
      waiters.add(check);
      check();
    });
  return { child, output: () => text, exited, waitFor };
}

/** Ports for one launcher run: the API port and the next two (Lambda API, signals) free, plus DynamoDB's. */
export async function freePorts(): Promise<{ http: number; dynamo: number }> {
  for (;;) {
    const http = await freePort();
    if (http < 65534 && (await allFree([http + 1, http + 2]))) return { http, dynamo: await freePort() };
  }
}

export async function allFree(ports: number[]): Promise<boolean> {
  for (const port of ports) if (!(await isPortFree(port))) return false;
  return true;
}

/**
 * WHATWG "bad ports" (fetch refuses them) whose next port is an ordinary one: the launcher must
 * still start on them (it checks readiness with node:http).
 */
const BAD_PORTS = [4190, 6000, 6566, 6679, 6697, 10080, 4045, 5061];

/** The first bad port that is free with its next two ports, plus a free DynamoDB port. */
export async function freeBadPorts(): Promise<{ http: number; dynamo: number }> {
  for (const http of BAD_PORTS) {
    if (await allFree([http, http + 1, http + 2])) return { http, dynamo: await freePort() };
  }
  throw new Error(`every candidate bad port is taken: ${BAD_PORTS.join(', ')}`);
}

/** Something else listening on a port, to see the launcher refuse it. */
export function occupy(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}
