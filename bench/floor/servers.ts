import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '../../scripts/local/ports.ts';
import { startOffline } from '../../test/e2e/support/serverless-offline.ts';
import { writeFloorConfig } from './serverless-config.ts';

/**
 * The floor function (get-item-function.ts: GET node's one GetItem, nothing else) served two ways:
 * by serverless-offline with the project's own options, the best any handler can do on the decided
 * local stack; and by a bare node:http server, what HTTP itself costs. `stop()` stops both.
 */
interface FloorServer {
  baseUrl: string;
  pid: number | undefined;
}

interface FloorServers {
  offline: FloorServer;
  nodeHttp: FloorServer;
  stop(): Promise<void>;
}

interface FloorOptions {
  root: string;
  dynamoEndpoint: string;
  table: string;
  rootPassword: string;
}

function startNodeHttp(root: string, port: number): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(root, 'bench', 'floor', 'node-http-server.ts')],
    {
      cwd: root,
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.removeListener('exit', killOnExit));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error('the node:http floor server did not start in 30 s')),
      30_000,
    );
    child.stdout?.once('data', () => {
      clearTimeout(timer);
      resolve(child);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the node:http floor server exited (${code})`));
    });
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  await exited;
}

export async function startFloors(options: FloorOptions): Promise<FloorServers> {
  const config = writeFloorConfig(options.root);
  let offline: Awaited<ReturnType<typeof startOffline>> | undefined;
  try {
    offline = await startOffline({
      dynamoEndpoint: options.dynamoEndpoint,
      table: options.table,
      rootPassword: options.rootPassword,
      config: config.file,
    });
    const port = await freePort();
    const nodeHttp = await startNodeHttp(options.root, port);
    const started = offline;
    return {
      offline: { baseUrl: started.baseUrl, pid: started.pid },
      nodeHttp: { baseUrl: `http://127.0.0.1:${port}`, pid: nodeHttp.pid },
      stop: async () => {
        await stopChild(nodeHttp);
        await started.stop();
        config.remove();
      },
    };
  } catch (error) {
    await offline?.stop();
    config.remove();
    throw error;
  }
}
